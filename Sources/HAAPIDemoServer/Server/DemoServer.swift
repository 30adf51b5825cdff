import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The embedded demo HAAPI server: an OAuth 2.0 / OpenID Connect authorization server with Curity's
/// Hypermedia Authentication API, DPoP and scripted demo users. Not an identity provider.
///
/// Two ways to run it:
/// - In a `ServiceGroup` (for example next to the gateway): `try DemoServer.makeApplication(...)` returns a
///   Hummingbird application, which is a `Service`; `onRunning` reports its base URL once bound.
/// - Standalone on a free port (tests, tools): `let server = try await DemoServer.start()`, then
///   `server.baseURL` and finally `await server.shutdown()`.
public enum DemoServer {
    /// The registered client id (`demo-gateway`).
    public static let clientID = RegisteredClient.demoGateway.clientID
    /// The registered client secret (`demo-secret`).
    public static let clientSecret = RegisteredClient.demoGateway.secret
    /// The registered redirect URI (`haapi:start`).
    public static let redirectURI = "haapi:start"
    /// The scope of the HAAPI access token (`urn:se:curity:scopes:haapi`).
    public static let haapiScope = RegisteredClient.haapiScope

    /// Builds the demo server as a Hummingbird application (a `Service`).
    ///
    /// Keys and secrets are generated here, per call. When `configuration.clientKeyPath` is set, the demo
    /// client's `private_key_jwt` key is written there (PEM, mode 0600) before this returns.
    /// A warning is logged (and printed to stderr) when `configuration.host` is not a loopback address.
    /// - Parameters:
    ///   - configuration: Where to bind and the demo's lifetimes.
    ///   - logger: The logger; request lines are logged at `debug`, never secrets.
    ///   - onRunning: Called with the base URL (for example `http://127.0.0.1:54321`) and the bound port once the server listens.
    /// - Returns: The application; run it with `runService()` or add it to a `ServiceGroup`.
    public static func makeApplication(
        configuration: DemoServerConfiguration = .init(),
        logger: Logger = Logger(label: "haapi-demo-server"),
        onRunning: @escaping @Sendable (URL, Int) async -> Void = { _, _ in }
    ) throws -> some ApplicationProtocol {
        try makeApplication(context: DemoServerContext(configuration: configuration, logger: logger), logger: logger, onRunning: onRunning)
    }

    /// ``makeApplication(configuration:logger:onRunning:)`` around a context made by the caller.
    private static func makeApplication(
        context: DemoServerContext,
        logger: Logger,
        onRunning: @escaping @Sendable (URL, Int) async -> Void
    ) throws -> some ApplicationProtocol {
        let configuration = context.configuration
        if let path = configuration.clientKeyPath {
            try writeClientKey(context.clientAssertionKey.value, to: path)
        }
        if !configuration.bindsLoopbackOnly {
            let warning = """
                WARNING: the HAAPI demo server is binding to \(configuration.host), which is not a loopback address.
                WARNING: it is a DEMO with fixed users and passwords, not an identity provider. Do not expose it.
                """
            FileHandle.standardError.write(Data((warning + "\n").utf8))
            logger.warning("Demo HAAPI server bound to a non-loopback address", metadata: ["host": "\(configuration.host)"])
        }
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(DemoTracingMiddleware())
        router.middlewares.add(DemoRequestLogMiddleware(logger: logger))
        DiscoveryController(context: context).register(on: router)
        TokenController(context: context).register(on: router)
        HAAPIController(context: context).register(on: router)
        UserInfoController(context: context).register(on: router)
        DemoPagesController(context: context).register(on: router)
        return Application(
            router: router,
            // Idle or stalled connections (including half-sent bodies) are closed after 30 s.
            server: .http1(configuration: .init(idleTimeout: .seconds(30))),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                context.serverDidBind(port: port)
                logger.info("Demo HAAPI server listening", metadata: ["baseURL": "\(context.baseURL)", "issuer": "\(context.issuer)"])
                if let url = URL(string: context.baseURL) { await onRunning(url, port) }
            },
            logger: logger
        )
    }

    /// Starts the demo server in the background and returns once it listens.
    ///
    /// Use port 0 (the default) to get a free port; read it from ``RunningDemoServer/baseURL``.
    /// - Parameters:
    ///   - configuration: Where to bind and the demo's lifetimes.
    ///   - logger: The logger.
    /// - Returns: The running server; call ``RunningDemoServer/shutdown()`` when done.
    public static func start(
        configuration: DemoServerConfiguration = .init(),
        logger: Logger = Logger(label: "haapi-demo-server")
    ) async throws -> RunningDemoServer {
        let (urls, continuation) = AsyncStream.makeStream(of: (url: URL, port: Int).self)
        let context = DemoServerContext(configuration: configuration, logger: logger)
        let application = try makeApplication(context: context, logger: logger) { url, port in
            continuation.yield((url, port))
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await (url, port) in urls {
            var host = configuration.host
            if host == "0.0.0.0" || host == "::" || host.isEmpty { host = "127.0.0.1" }
            if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
            return RunningDemoServer(
                baseURL: url,
                listeningURL: URL(string: "http://\(host):\(port)") ?? url,
                group: group,
                task: task,
                clientKeyPath: configuration.clientKeyPath,
                outbox: context.outbox,
                grants: context.grants
            )
        }
        // The stream finished without a URL: the server failed to start.
        task.cancel()
        do {
            try await task.value
        } catch {
            throw DemoServerError.startFailed(String(describing: error))
        }
        throw DemoServerError.startFailed("the server stopped before listening")
    }

    private static func writeClientKey(_ key: P256.Signing.PrivateKey, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(key.pemRepresentation.utf8).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        } catch {
            throw DemoServerError.clientKeyNotWritten(path)
        }
    }
}
