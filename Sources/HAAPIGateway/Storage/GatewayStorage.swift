import ServiceLifecycle

/// Where the gateway keeps its state: every store it uses, the readiness of the place they live and the services that
/// keep it. The composition root (``Gateway``) takes one from a ``GatewayStorageChoice`` (`bySessionsStore`, in
/// `HAAPIGatewayPostgres`, is the one choice by `sessions.store`) and makes no other storage choice: ``MemoryStorage``
/// keeps everything in this process, `PostgresStorage` in a database that replicas share.
///
/// Each store is made once and reads its settings at each operation from the configuration in effect
/// (``SettingsSource``), so that a reload reaches it without being handed anything.
package protocol GatewayStorage: Sendable {
    /// The sign-ins. `restorer` turns a stored sign-in back into a live one (a store that keeps them in memory never
    /// needs it).
    func sessionStore(settings: SettingsSource<SessionSettings>, restorer: @autoclosure () -> SignInRestorer) -> any SessionStore<SignInSession>

    /// How many new sign-ins an address may start.
    func newSessionBudget(settings: SettingsSource<SessionSettings>) -> any NewSessionBudget

    /// The device authorizations of RFC 8628.
    func deviceAuthorizations(settings: SettingsSource<DeviceSettings>) -> any DeviceAuthorizationStore

    /// The wrong user codes counted for the device verification page.
    func userCodeAttempts(settings: SettingsSource<DeviceSettings>) -> any UserCodeAttemptLimiter

    /// The start links used up.
    func startLinkLedger() -> any StartLinkLedger

    /// Where what the gateway learns about its upstream is kept between runs, or nil: in memory only.
    func upstreamFacts() -> (any UpstreamFactStore)?

    /// Where callback deliveries not done yet are kept beyond this process (``CallbackJournal``).
    func callbackJournal(metrics: GatewayMetrics?) -> any CallbackJournal

    /// Keys every replica shares, from which the gateway derives the keys of the tokens it signs (the kiosk's final
    /// pages, the device forms, the devices' refresh tokens); nil: each process makes its own.
    var sharedKeys: SessionCipher? { get }

    /// Whether the storage can serve now, for `/readyz`; nil: always (memory).
    var readiness: (@Sendable () async -> StorageReadiness)? { get }

    /// The services that keep the storage (its connections, its sweeps), run before every other service so that they
    /// stop last.
    var services: [any Service] { get }

    /// Prepares the storage before the gateway listens (its tables); throws what must stop the start.
    func prepare() async throws

    /// Names, at the end of a stop that ran out of time, what the storage still had under way.
    func watch(_ stopDeadline: StopDeadline)
}
