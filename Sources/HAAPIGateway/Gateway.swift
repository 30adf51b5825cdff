import Crypto
import Foundation
import HAAPI
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

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
    ///   - metrics: Where the metrics are counted (served on their own listener when `metrics.enabled`).
    ///   - reloader: Attached to this gateway, it applies a new configuration while it runs (SIGHUP).
    ///   - now: The clock of session lifetimes and kiosk idle resets (tests inject one).
    ///   - stopDeadline: Bounds the stop after the drain (``StopDeadline``, started by ``GatewayDrainService``): the last
    ///     callback deliveries finish within it, and what is still under way at its end is named.
    ///   - upstreamFactsFile: Where what the gateway learns about its upstream (whether it issues token-bound
    ///     authorization codes, ``UpstreamFactKeeper``) is kept: `login` keeps it beside its token file. Nil: in the
    ///     database with `sessions.store: postgres`, else beside `callbacks.spoolFile` when it is set, else in memory only.
    ///   - embeddedDemo: The settings the embedded demo upstream was started from, when `configuration.upstream` is that
    ///     demo server (the executable starts it for a configuration without `upstream.baseURL`). A reload compares the
    ///     `upstream` and `demo` settings it reads with these, as a configuration names them, not with the demo server's
    ///     address and client, which no configuration names.
    ///   - demoOutbox: Only in front of the embedded demo upstream: its outbox document (the one-time codes and approval
    ///     links it "sent"), served at `/demo/outbox` (``DemoOutboxController``). Nil: no such route.
    ///   - storageChoice: Where the gateway keeps its state (``GatewayStorageChoice``): in memory by default;
    ///     `HAAPIGatewayPostgres`'s `.bySessionsStore` follows `sessions.store`, PostgreSQL included.
    /// - Throws: ``GatewayError`` for missing templates, a `.demo` upstream or a storage the choice cannot make;
    ///   ``ConfigurationError`` when the upstream answers but is wrong for the client (no discovery there, a refused client
    ///   secret). An upstream that cannot be reached is no failure: the gateway starts and keeps trying
    ///   (``UpstreamConnection``).
    public static func makeApplication(
        configuration: GatewayConfiguration,
        logger: Logger,
        onRunning: @escaping @Sendable (URL) async -> Void = { _ in },
        onOutcome: (@Sendable (CompletionOutcome) async -> Void)? = nil,
        drain: GatewayDrain = GatewayDrain(),
        metrics: GatewayMetrics = GatewayMetrics(),
        reloader: GatewayReloader = GatewayReloader(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        stopDeadline: StopDeadline? = nil,
        upstreamFactsFile: String? = nil,
        embeddedDemo: DemoUpstreamSettings? = nil,
        demoOutbox: (@Sendable () -> [UInt8])? = nil,
        storageChoice: GatewayStorageChoice = .memoryOnly
    ) async throws -> some ApplicationProtocol {
        guard case .haapi(let upstream) = configuration.upstream else {
            throw GatewayError(.configuration, "the demo upstream is started by the executable; pass a .haapi upstream to the library")
        }
        let live = LiveSettings(configuration: configuration, templates: try TemplateLibrary(settings: configuration.templates))
        // The default pages use the typed step only; without each step's JSON tree an open session holds about 5 KiB less.
        // With an override directory the JSON is kept, so an override can show every member as `haapi`.
        // Many sign-ins call the upstream at once: more pooled connections than a single client needs.
        var clientConfiguration = upstream
        clientConfiguration.keepsRawJSON = configuration.templates.overrideDirectory != nil
        clientConfiguration.maximumConnections = max(clientConfiguration.maximumConnections, 64)
        // Everyone starts at the same step: the sessions at one step share a single decoded copy of it.
        clientConfiguration.sharedStepCacheSize = max(clientConfiguration.sharedStepCacheSize, 256)
        let storage = try storageChoice.storage(configuration, logger, now)
        // The upstream is tried once now: one that answers wrongly stops startup; one that is down is tried again in the
        // background while the gateway serves "sign-in is unavailable" pages. What its client learns about the upstream is
        // kept where the gateway keeps state (`login`: beside its token file), so that a restart, a replica or the next
        // `login` run knows it.
        let factStore: (any UpstreamFactStore)? = upstreamFactsFile.map { UpstreamFactFile(path: $0) } ?? storage.upstreamFacts()
        let facts = factStore.map { UpstreamFactKeeper(store: $0, logger: logger) }
        let upstreamConnection = UpstreamConnection(configuration: clientConfiguration, logger: logger, facts: facts)
        try await upstreamConnection.attempt()
        let limiter = FailedPostLimiter(settings: live.source(\.sessions), now: now)
        let newSessions = storage.newSessionBudget(settings: live.source(\.sessions))
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
        let codeAttempts = storage.userCodeAttempts(settings: live.source(\.devices))
        let store = storage.sessionStore(
            settings: live.source(\.sessions),
            restorer: SignInRestorer(
                upstream: upstreamConnection,
                dispatcher: dispatcher,
                live: live,
                devices: devices,
                metrics: metrics,
                logger: logger
            )
        )
        let services = GatewayServices(
            live: live,
            server: configuration.server,
            upstream: upstreamConnection,
            store: store,
            limiter: limiter,
            newSessions: newSessions,
            dispatcher: dispatcher,
            drain: drain,
            metrics: metrics,
            originGuard: RequestOriginGuard(
                publicOrigin: RequestOriginGuard.origin(of: configuration.server.publicBaseURL),
                listensWithTLS: configuration.server.tls != nil
            ),
            logger: logger
        )
        let signIns = BrowserSignIns(services: services)
        let router = Router(context: GatewayRequestContext.self)
        router.middlewares.add(ClientAddressMiddleware(trustedProxies: configuration.server.trustedProxies))
        router.middlewares.add(RequestLogMiddleware())
        router.middlewares.add(SecurityHeadersMiddleware(live: live))
        router.middlewares.add(ErrorPageMiddleware(live: live))
        router.middlewares.add(TrustedHostMiddleware(server: configuration.server))
        router.middlewares.add(SessionCheckInMiddleware(store: store))
        let startLinks = StartLinkVerifier(settings: live.source(\.startLinks), ledger: storage.startLinkLedger())
        reloader.attach(ReloadTarget(live: live, upstream: upstreamConnection, embeddedDemo: embeddedDemo, logger: logger))
        let health = HealthController(
            upstream: upstreamConnection,
            drain: drain,
            probe: UpstreamProbe(upstream: upstreamConnection),
            live: live,
            storageReadiness: storage.readiness
        )
        if configuration.server.healthEndpoints { health.register(on: router) }
        SignInController(
            services: services,
            kioskTickets: HMACToken(keys: HMACToken.keys(for: "kiosk final pages", derivedFrom: storage.sharedKeys))
        ).register(on: router)
        AssetController(live: live).register(on: router)
        if let demoOutbox { DemoOutboxController(document: demoOutbox).register(on: router) }
        ExternalBrowserController(services: services, signIns: signIns).register(on: router)
        if configuration.startLinks.enabled { StartLinkController(services: services, signIns: signIns, verifier: startLinks).register(on: router) }
        if configuration.devices.enabled {
            // Refresh tokens outlive a process: sealed under the configured keys, else (replicas) keys derived from the
            // sessions' encryption keys, else a key of this process's own.
            var refreshTokenKeys = configuration.devices.refreshTokenKeys
            if refreshTokenKeys.isEmpty, let sharedKeys = storage.sharedKeys {
                refreshTokenKeys = SealedRefreshToken.derivedKeys(from: sharedKeys)
            }
            if refreshTokenKeys.isEmpty {
                logger.warning(
                    "\(ConfigurationKey.devicesRefreshTokenKeyFile.path) is not set: refresh tokens handed to devices stop working when the gateway restarts"
                )
                refreshTokenKeys = [SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }]
            }
            let sealer = SealedRefreshToken(keys: refreshTokenKeys)
            DeviceAuthorizationController(services: services, store: devices, sealer: sealer).register(on: router)
            DeviceVerificationController(
                services: services,
                signIns: signIns,
                store: devices,
                limiter: codeAttempts,
                formTokens: HMACToken(keys: HMACToken.keys(for: "device form tokens", derivedFrom: storage.sharedKeys))
            ).register(on: router)
        }
        if let pairing = configuration.pairing {
            PairingController(services: services, signIns: signIns, gate: PairingGate(ticket: pairing.ticket), hostName: pairing.hostName).register(
                on: router
            )
        }
        let server = configuration.server
        // Slow and crowded clients: every connection is counted (in total and per address, within what the open-file
        // limit allows) and must deliver each whole request in time. The same handlers serve the HTTPS listener.
        let limits = ConnectionLimits(
            maximumConnections: OpenFileLimit.prepare(forConnections: server.maximumConnections, logger: logger),
            maximumConnectionsPerAddress: server.maximumConnectionsPerAddress,
            exempt: server.trustedProxies
        )
        let notices = ConnectionNotices(logger: logger, metrics: metrics)
        let requestTimeLimit = TimeAmount.seconds(Int64(server.requestTimeoutSeconds))
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [
                    ConnectionLimitHandler(limits: limits, notices: notices), RequestTimeLimitHandler(limit: requestTimeLimit, notices: notices),
                ],
                idleTimeout: .seconds(30)
            )
        )
        // The storage runs first, so that it is shut down last (services stop in reverse order).
        var backgroundServices = storage.services
        backgroundServices += [upstreamConnection, GatewayShutdownService(dispatcher: dispatcher, stopDeadline: stopDeadline)]
        if let stopDeadline {
            stopDeadline.watch("requests under way") {
                let open = limits.openConnections
                return open == 0 ? nil : "\(open) connection\(open == 1 ? "" : "s") still open; their requests are cut off"
            }
            stopDeadline.watch("callback deliveries") { dispatcher.stopReport }
            storage.watch(stopDeadline)
        }
        if configuration.metrics.enabled {
            backgroundServices.append(
                NamedListener(
                    listener: Self.metricsApplication(
                        configuration.metrics,
                        server: http1,
                        metrics: metrics,
                        store: store,
                        limits: limits,
                        health: health,
                        logger: logger
                    ),
                    host: configuration.metrics.host,
                    port: configuration.metrics.port
                )
            )
        }
        var application = Application(
            responder: NormalizedRequestResponder(wrapped: router.buildResponder(), routes: router.routes.map { ($0.method, $0.path) }),
            server: try server.tls.map { try .tls(http1, tlsConfiguration: $0.makeTLSConfiguration()) } ?? http1,
            configuration: ApplicationConfiguration(address: .hostname(server.host, port: server.port), serverName: nil),
            services: backgroundServices,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? server.port
                let url = server.publicBaseURL ?? URL(string: "\(server.tls == nil ? "http" : "https")://\(server.host):\(port)")!
                logger.info("HAAPI gateway listening", metadata: ["url": "\(url.absoluteString)"])
                drain.markServing()
                await onRunning(url)
            },
            logger: logger
        )
        application.beforeServerStarts { try await storage.prepare() }
        return application
    }

    /// The metrics listener: `GET /metrics` in the Prometheus text format, and `/healthz` and `/readyz`. Its connections
    /// count against the same bounds as the pages' (`server`: `server.maximumConnections` and per address, each
    /// request within `server.requestTimeoutSeconds`), so that it can never hold more descriptors than they allow.
    private static func metricsApplication(
        _ settings: MetricsSettings,
        server: HTTPServerBuilder,
        metrics: GatewayMetrics,
        store: any SessionStore<SignInSession>,
        limits: ConnectionLimits,
        health: HealthController,
        logger: Logger
    ) -> some Service {
        // HEAD is answered as GET is, as on the sign-in listener (a probe or monitor may ask HEAD).
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        health.register(on: router)
        router.get("/metrics") { _, _ in
            metrics.sessionsOpen(await store.count)
            metrics.sessionsEvicted(await store.evictions)
            metrics.connectionsOpen(limits.openConnections)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition()))
            )
        }
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                logger.info("metrics listening", metadata: ["url": "http://\(settings.host):\(channel.localAddress?.port ?? settings.port)/metrics"])
            },
            logger: logger
        )
    }
}
