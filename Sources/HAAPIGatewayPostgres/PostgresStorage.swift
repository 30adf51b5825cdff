import HAAPIGateway
import Logging
import ServiceLifecycle

/// Everything in PostgreSQL (`sessions.store: postgres`), shared by the replicas: sign-ins, the new-session budget,
/// device authorizations and wrong user codes, used start links, the upstream's facts and the callback outbox, each in
/// its table of ``PostgresSchema``. The database is one service (``PostgresSessionStorage``: its pool, the tables'
/// preparation and the sweeps of expired rows), and `/readyz` asks it.
struct PostgresStorage: GatewayStorage {
    /// The sessions' table and the database every store uses.
    let sessions: PostgresSessionStorage
    /// The callback outbox: the dispatcher's journal, which device approvals add their outcome to in the same statement
    /// (one owner, so that the deliveries an approval claims are this replica's journal's).
    let outbox: CallbackOutbox
    /// The spool file a configuration may name, which the outbox replaces (said once, as a warning).
    let spoolFile: String?
    let logger: Logger

    /// The storage of a `sessions.store: postgres` configuration.
    /// - Parameter clock: Whose "now" expiry, leases and idle times use: the database's (tests inject one).
    /// - Throws: ``GatewayError`` when the encryption keys file holds no key.
    init(settings: PostgresStoreSettings, spoolFile: String?, clock: StorageClock = .database, logger: Logger) throws {
        guard let cipher = SessionCipher(keys: settings.encryptionKeys) else {
            throw GatewayError(.configuration, "\(ConfigurationKey.sessionsEncryptionKeysFile.path) holds no key")
        }
        var options = PostgresDatabase.Options()
        options.synchronousCommit = settings.synchronousCommit
        let database = PostgresDatabase(url: settings.url, cipher: cipher, clock: clock, options: options, logger: logger)
        sessions = PostgresSessionStorage(database: database)
        outbox = CallbackOutbox(table: PostgresOutbox(database: sessions.database))
        self.spoolFile = spoolFile
        self.logger = logger
    }

    private var database: PostgresDatabase { sessions.database }

    func sessionStore(settings: SettingsSource<SessionSettings>, restorer: @autoclosure () -> SignInRestorer) -> any SessionStore<SignInSession> {
        PostgresSessionStore(storage: sessions, settings: settings, restorer: restorer(), logger: logger)
    }

    func newSessionBudget(settings: SettingsSource<SessionSettings>) -> any NewSessionBudget {
        PostgresNewSessionLimiter(database: database, settings: settings, logger: logger)
    }

    func deviceAuthorizations(settings: SettingsSource<DeviceSettings>) -> any DeviceAuthorizationStore {
        PostgresDeviceAuthorizations(database: database, settings: settings, outbox: outbox, logger: logger)
    }

    func userCodeAttempts(settings: SettingsSource<DeviceSettings>) -> any UserCodeAttemptLimiter {
        PostgresUserCodeAttemptLimiter(database: database, settings: settings, logger: logger)
    }

    func startLinkLedger() -> any StartLinkLedger { PostgresStartLinkLedger(database: database, logger: logger) }

    func upstreamFacts() -> (any UpstreamFactStore)? { PostgresUpstreamFacts(database: database) }

    /// In the database's outbox, where any replica delivers them.
    func callbackJournal(metrics: GatewayMetrics?) -> any CallbackJournal {
        if let spoolFile {
            logger.warning(
                "\(ConfigurationKey.callbacksSpoolFile.path) is not used with \(ConfigurationKey.sessionsStore.path): postgres: pending callback deliveries are kept in the database's outbox",
                metadata: ["spoolFile": "\(spoolFile)"]
            )
        }
        return OutboxJournal(outbox, metrics: metrics, logger: logger)
    }

    var sharedKeys: SessionCipher? { database.cipher }

    var readiness: (@Sendable () async -> StorageReadiness)? {
        let sessions = sessions
        return { await sessions.readiness() }
    }

    var services: [any Service] { [sessions] }

    /// Tables the database refuses (newer than this gateway knows, credentials refused, not creatable) stop the gateway
    /// before it listens; a database that cannot be reached yet does not.
    func prepare() async throws { try await database.firstPreparation() }

    func watch(_ stopDeadline: StopDeadline) {
        let database = database
        stopDeadline.watch("session database") { database.stopReport }
    }
}
