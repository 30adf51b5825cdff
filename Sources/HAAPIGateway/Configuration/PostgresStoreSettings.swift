/// The PostgreSQL database sessions and pending callback deliveries are kept in (`sessions.store: postgres`).
public struct PostgresStoreSettings: Sendable, Equatable {
    /// The database (`sessions.postgresURL` or `sessions.postgresURLFile`).
    public var url: PostgresURL
    /// The keys documents are sealed with (`sessions.encryptionKeysFile`): the first seals, every one opens.
    public var encryptionKeys: [SessionEncryptionKey]

    /// Creates the settings.
    /// - Parameters:
    ///   - url: The database.
    ///   - encryptionKeys: At least one key; the first seals new documents.
    public init(url: PostgresURL, encryptionKeys: [SessionEncryptionKey]) {
        self.url = url
        self.encryptionKeys = encryptionKeys
    }
}
