import Foundation
import HAAPI
import Logging

/// The parts of one gateway that its routes and listeners share, made in the order they depend on each other
/// (``assemble(configuration:upstream:storage:upstreamFactsFile:onOutcome:drain:metrics:now:logger:)``): the live
/// settings, the storage, the upstream, the callback dispatcher, the device authorizations and the sessions. The
/// composition root (``Gateway``) makes it, then its routes (``router(configuration:demoOutbox:)``) and its listeners
/// (``application(router:health:configuration:stopDeadline:onRunning:)``).
struct GatewayCore: Sendable {
    let live: LiveSettings
    let storage: any GatewayStorage
    let upstream: UpstreamConnection
    let dispatcher: CallbackDispatcher
    let devices: any DeviceAuthorizationStore
    let codeAttempts: any UserCodeAttemptLimiter
    let store: any SessionStore<SignInSession>
    let services: GatewayServices
    let drain: GatewayDrain
    let metrics: GatewayMetrics
    let logger: Logger

    /// Makes the parts of a gateway for `configuration`, whose upstream is `upstream`, keeping its state in `storage`.
    ///
    /// The upstream is tried once: one that answers wrongly stops startup (``ConfigurationError``); one that is down is
    /// tried again in the background while the gateway serves "sign-in is unavailable" pages. What its client learns
    /// about the upstream is kept where the gateway keeps state (`login`: `upstreamFactsFile`, beside its token file),
    /// so that a restart, a replica or the next `login` run knows it.
    static func assemble(
        configuration: GatewayConfiguration,
        upstream: HAAPIClientConfiguration,
        storage: any GatewayStorage,
        upstreamFactsFile: String?,
        onOutcome: (@Sendable (CompletionOutcome) async -> Void)?,
        drain: GatewayDrain,
        metrics: GatewayMetrics,
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        logger: Logger
    ) async throws -> GatewayCore {
        let live = LiveSettings(configuration: configuration, templates: try TemplateLibrary(settings: configuration.templates))
        let factStore: (any UpstreamFactStore)? = upstreamFactsFile.map { UpstreamFactFile(path: $0) } ?? storage.upstreamFacts()
        let facts = factStore.map { UpstreamFactKeeper(store: $0, logger: logger) }
        let connection = UpstreamConnection(configuration: clientConfiguration(upstream, for: configuration), logger: logger, facts: facts)
        try await connection.attempt()
        let dispatcher = CallbackDispatcher(
            sinks: .configured(live.source(\.callbacks)),
            settings: live.source(\.callbackDelivery),
            logger: logger,
            observer: onOutcome,
            journal: storage.callbackJournal(metrics: metrics),
            metrics: metrics
        )
        await dispatcher.start()
        let devices = storage.deviceAuthorizations(settings: live.source(\.devices))
        let restorer = SignInRestorer(upstream: connection, dispatcher: dispatcher, live: live, devices: devices, metrics: metrics, logger: logger)
        let store = storage.sessionStore(settings: live.source(\.sessions), restorer: restorer)
        let services = GatewayServices(
            live: live,
            server: configuration.server,
            upstream: connection,
            store: store,
            limiter: FailedPostLimiter(settings: live.source(\.sessions), now: now),
            newSessions: storage.newSessionBudget(settings: live.source(\.sessions)),
            dispatcher: dispatcher,
            drain: drain,
            metrics: metrics,
            originGuard: RequestOriginGuard(
                publicOrigin: RequestOriginGuard.origin(of: configuration.server.publicBaseURL),
                listensWithTLS: configuration.server.tls != nil
            ),
            logger: logger,
            signInMode: SignInMode(configuration),
            traceMarks: configuration.tracing.isEnabled()
                ? SignInTraceMark(keys: HMACToken.keys(for: "sign-in trace marks", derivedFrom: storage.sharedKeys)) : nil
        )
        return GatewayCore(
            live: live,
            storage: storage,
            upstream: connection,
            dispatcher: dispatcher,
            devices: devices,
            codeAttempts: storage.userCodeAttempts(settings: live.source(\.devices)),
            store: store,
            services: services,
            drain: drain,
            metrics: metrics,
            logger: logger
        )
    }

    /// The upstream client's configuration for the gateway: many sign-ins call the upstream at once, so more pooled
    /// connections than a single client needs, and the sessions at one step share a single decoded copy of it. The
    /// default pages use the typed step only: without each step's JSON tree an open session holds about 5 KiB less;
    /// with an override directory the JSON is kept, so that an override can show every member as `haapi`.
    static func clientConfiguration(_ upstream: HAAPIClientConfiguration, for configuration: GatewayConfiguration) -> HAAPIClientConfiguration {
        var client = upstream
        client.keepsRawJSON = configuration.templates.overrideDirectory != nil
        client.maximumConnections = max(client.maximumConnections, 64)
        client.sharedStepCacheSize = max(client.sharedStepCacheSize, 256)
        return client
    }
}
