/// The PostgreSQL database sessions and pending callback deliveries are kept in (`sessions.store: postgres`).
public struct PostgresStoreSettings: Sendable, Equatable {
    /// The database (`sessions.postgresURL` or `sessions.postgresURLFile`).
    public var url: PostgresURL
    /// The keys documents are sealed with (`sessions.encryptionKeysFile`): the first seals, every one opens.
    public var encryptionKeys: [SessionEncryptionKey]
    /// Whether a sign-in's row waits for the database's disk at each commit (`sessions.synchronousCommit`, default false:
    /// PostgreSQL's asynchronous commit, ``PostgresDatabase/Commit/asynchronous``). Pending callback deliveries, device
    /// authorizations and the tables always wait.
    public var synchronousCommit: Bool

    /// Creates the settings.
    /// - Parameters:
    ///   - url: The database.
    ///   - encryptionKeys: At least one key; the first seals new documents.
    ///   - synchronousCommit: Whether sign-in rows wait for the disk too.
    public init(url: PostgresURL, encryptionKeys: [SessionEncryptionKey], synchronousCommit: Bool = false) {
        self.url = url
        self.encryptionKeys = encryptionKeys
        self.synchronousCommit = synchronousCommit
    }
}
