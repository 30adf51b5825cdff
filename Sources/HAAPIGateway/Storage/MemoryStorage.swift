import Logging
import ServiceLifecycle

/// Everything in this process's memory (`sessions.store: memory`, the default): a restart ends the sign-ins under way,
/// and replicas cannot share them. Callback deliveries not done, and what the gateway learns about its upstream, are kept
/// in and beside `callbacks.spoolFile` when one is set.
package struct MemoryStorage: GatewayStorage {
    /// The spool file of callback deliveries, beside which the upstream's facts are kept.
    let spoolFile: String?
    /// The clock of lifetimes and windows (tests inject one).
    let now: @Sendable () -> ContinuousClock.Instant
    let logger: Logger

    package init(spoolFile: String?, now: @escaping @Sendable () -> ContinuousClock.Instant, logger: Logger) {
        self.spoolFile = spoolFile
        self.now = now
        self.logger = logger
    }

    package func sessionStore(
        settings: SettingsSource<SessionSettings>,
        restorer: @autoclosure () -> SignInRestorer
    ) -> any SessionStore<SignInSession> {
        MemorySessionStore<SignInSession>(settings: settings, now: now)
    }

    package func newSessionBudget(settings: SettingsSource<SessionSettings>) -> any NewSessionBudget {
        NewSessionLimiter(settings: settings, now: now)
    }

    package func deviceAuthorizations(settings: SettingsSource<DeviceSettings>) -> any DeviceAuthorizationStore {
        MemoryDeviceAuthorizations(settings: settings, now: now)
    }

    package func userCodeAttempts(settings: SettingsSource<DeviceSettings>) -> any UserCodeAttemptLimiter {
        MemoryUserCodeAttemptLimiter(settings: settings, now: now)
    }

    package func startLinkLedger() -> any StartLinkLedger { MemoryStartLinkLedger() }

    package func upstreamFacts() -> (any UpstreamFactStore)? { spoolFile.map { UpstreamFactFile.besideSpool($0) } }

    /// In the spool file when `callbacks.spoolFile` is set, for this gateway's next start; else nowhere.
    package func callbackJournal(metrics: GatewayMetrics?) -> any CallbackJournal {
        guard let spoolFile else { return MemoryJournal() }
        return SpoolJournal(path: spoolFile, metrics: metrics, logger: logger)
    }

    package var sharedKeys: SessionCipher? { nil }

    package var readiness: (@Sendable () async -> StorageReadiness)? { nil }

    package var services: [any Service] { [] }

    package func prepare() async throws {}

    package func watch(_ stopDeadline: StopDeadline) {}
}
