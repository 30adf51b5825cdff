import Foundation
import HAAPI
import Hummingbird
import Logging

/// The composition root of the gateway.
public enum Gateway {
    /// Builds the gateway application for a configuration whose upstream is a HAAPI server.
    ///
    /// Templates are loaded and checked, and the upstream's discovery is fetched, before this returns.
    /// - Parameters:
    ///   - configuration: The configuration; `upstream` must be `.haapi` (the executable resolves `.demo`).
    ///   - logger: The logger (no secret is ever logged).
    ///   - onRunning: Called with the gateway's base URL once it listens.
    ///   - onOutcome: Called with the outcome of every sign-in, after the sinks' first attempt (in-process consumers such as
    ///     the `login` command).
    ///   - drain: The drain state: while draining, readiness answers 503 and new sign-ins are refused (run a
    ///     ``GatewayDrainService`` after the application in the same `ServiceGroup` to drain on SIGTERM).
    ///   - now: The clock of session lifetimes and kiosk idle resets (tests inject one).
    /// - Throws: ``GatewayError`` with code `configuration` for missing templates or a `.demo` upstream; `HAAPIError` when discovery fails.
    public static func makeApplication(
        configuration: GatewayConfiguration, logger: Logger, onRunning: @escaping @Sendable (URL) async -> Void = { _ in },
        onOutcome: (@Sendable (CompletionOutcome) async -> Void)? = nil, drain: GatewayDrain = GatewayDrain(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) async throws -> some ApplicationProtocol {
        guard case .haapi(let upstream) = configuration.upstream else {
            throw GatewayError(.configuration, "the demo upstream is started by the executable; pass a .haapi upstream to the library")
        }
        let templates = try TemplateLibrary(settings: configuration.templates)
        let renderer = PageRenderer(
            templates: templates, defaultPollSeconds: configuration.polling.defaultIntervalSeconds, completionURL: configuration.completion.redirectURL,
            kiosk: configuration.kiosk)
        let client = try await HAAPIClient(configuration: upstream, logger: logger)
        let dispatcher = CallbackDispatcher(
            configurations: configuration.callbacks, settings: configuration.callbackDelivery, logger: logger, observer: onOutcome,
            spoolPath: configuration.callbackDelivery.spoolFile)
        await dispatcher.restoreSpool()
        let controller = SignInController(
            client: client, store: MemorySessionStore<SignInSession>(settings: configuration.sessions, now: now), dispatcher: dispatcher, renderer: renderer,
            configuration: configuration, drain: drain, originGuard: RequestOriginGuard(publicOrigin: RequestOriginGuard.origin(of: configuration.server.publicBaseURL)),
            logger: logger)
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(RequestLogMiddleware())
        router.middlewares.add(SecurityHeadersMiddleware())
        router.middlewares.add(ErrorPageMiddleware(renderer: renderer))
        HealthController(client: client, drain: drain, probe: UpstreamProbe(client: client)).register(on: router)
        controller.register(on: router)
        if let pairing = configuration.pairing {
            PairingController(signIn: controller, gate: PairingGate(ticket: pairing.ticket), hostName: pairing.hostName).register(on: router)
        }
        let server = configuration.server
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(30))),
            configuration: ApplicationConfiguration(address: .hostname(server.host, port: server.port), serverName: nil),
            services: [GatewayShutdownService(client: client, dispatcher: dispatcher)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? server.port
                let url = server.publicBaseURL ?? URL(string: "http://\(server.host):\(port)")!
                logger.info("HAAPI gateway listening", metadata: ["url": "\(url.absoluteString)"])
                await onRunning(url)
            },
            logger: logger)
    }
}
