/// Where sign-in sessions are kept (`sessions.store`).
public enum SessionStoreSettings: Sendable, Equatable {
    /// In this process's memory (the default): a restart ends every sign-in under way, and each replica has its own.
    case memory
    /// In a PostgreSQL database, sealed with the keys of `sessions.encryptionKeysFile`.
    case postgres(PostgresStoreSettings)
}
