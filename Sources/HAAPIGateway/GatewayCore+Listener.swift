import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

extension GatewayCore {
    /// The application serving `router` on `configuration.server` (over TLS when configured), with its background
    /// services: the storage's (first, so that it is shut down last: services stop in reverse order), the upstream's,
    /// the callbacks' shutdown, and the metrics listener when enabled.
    ///
    /// Slow and crowded clients: every connection is counted (in total and per address, within what the open-file limit
    /// allows) and must deliver each whole request in time; the metrics listener's connections count against the same
    /// bounds.
    func application(
        router: Router<GatewayRequestContext>,
        health: HealthController,
        configuration: GatewayConfiguration,
        stopDeadline: StopDeadline?,
        onRunning: @escaping @Sendable (URL) async -> Void
    ) throws -> some ApplicationProtocol {
        let server = configuration.server
        let limits = ConnectionLimits(
            maximumConnections: OpenFileLimit.prepare(forConnections: server.maximumConnections, logger: logger),
            maximumConnectionsPerAddress: server.maximumConnectionsPerAddress,
            exempt: server.trustedProxies
        )
        let notices = ConnectionNotices(logger: logger, metrics: metrics)
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [
                    ConnectionLimitHandler(limits: limits, notices: notices),
                    RequestTimeLimitHandler(limit: .seconds(Int64(server.requestTimeoutSeconds)), notices: notices),
                ],
                idleTimeout: .seconds(30)
            )
        )
        var backgroundServices = storage.services
        backgroundServices += [upstream, GatewayShutdownService(dispatcher: dispatcher, stopDeadline: stopDeadline)]
        if let stopDeadline { watch(stopDeadline, limits: limits) }
        if configuration.metrics.enabled {
            let listener = metricsApplication(configuration.metrics, server: http1, limits: limits, health: health)
            backgroundServices.append(NamedListener(listener: listener, host: configuration.metrics.host, port: configuration.metrics.port))
        }
        let (logger, drain) = (logger, drain)
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
        let storage = storage
        application.beforeServerStarts { try await storage.prepare() }
        return application
    }

    /// What the stop's deadline names when it ends: the requests and the callback deliveries still under way, and what the
    /// storage has.
    private func watch(_ stopDeadline: StopDeadline, limits: ConnectionLimits) {
        stopDeadline.watch("requests under way") {
            let open = limits.openConnections
            return open == 0 ? nil : "\(open) connection\(open == 1 ? "" : "s") still open; their requests are cut off"
        }
        let dispatcher = dispatcher
        stopDeadline.watch("callback deliveries") { dispatcher.stopReport }
        storage.watch(stopDeadline)
    }

    /// The metrics listener: `GET /metrics` in the Prometheus text format, and `/healthz` and `/readyz`. Its connections
    /// count against the same bounds as the pages' (`server`: `server.maximumConnections` and per address, each
    /// request within `server.requestTimeoutSeconds`), so that it can never hold more descriptors than they allow.
    private func metricsApplication(
        _ settings: MetricsSettings,
        server: HTTPServerBuilder,
        limits: ConnectionLimits,
        health: HealthController
    ) -> some Service {
        // HEAD is answered as GET is, as on the sign-in listener (a probe or monitor may ask HEAD).
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        health.register(on: router)
        let (metrics, store, logger) = (metrics, store, logger)
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
