import Foundation
import HAAPI
import HAAPIDemoServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

/// The gateway and the demo HAAPI server in-process on free loopback ports, and a browser for the gateway.
enum GatewayHarness {

    static let templatesDirectory = Repository.templates

    /// The gateway's HAAPI client of the running demo server, found by its issuer.
    ///
    /// The gateway, the demo server and every other suite share this process's two-thread task pool: on a loaded
    /// machine an upstream call waited out the client's 5 s connect and 15 s request limits, and a dozen sign-ins at
    /// once got the (correct) "Sign-in service unavailable" page instead of the step their test was about (CI's run and
    /// a full run beside a build). The limits themselves are tested where they are set (`HAAPIFlowHTTPTests`, the
    /// upstream faults of `UpstreamFailureTests`), so here they are a minute.
    static func upstream(demo: RunningDemoServer) -> HAAPIClientConfiguration {
        HAAPIClientConfiguration(
            baseURL: demo.issuerURL,
            clientID: DemoServer.clientID,
            clientAuthentication: .secretBasic(DemoServer.clientSecret),
            redirectURI: DemoServer.redirectURI,
            scopes: ["openid", "profile", "email"],
            connectTimeout: .seconds(60),
            requestTimeout: .seconds(60)
        )
    }

    /// A configuration for the running demo server with a file sink in a fresh temporary directory.
    static func configuration(demo: RunningDemoServer, sinkPath: String) -> GatewayConfiguration {
        let upstream = upstream(demo: demo)
        // All the suites share one process and its two-thread task pool on a 2-core machine, which can leave a request
        // waiting for seconds; a request closed at the product's 10 s limit then failed an unrelated test (CI's runs
        // found it twice). The limit itself is tested where it is set (SlowAndCrowdedClientTests).
        var server = ServerSettings(host: "127.0.0.1", port: 0)
        server.requestTimeoutSeconds = 60
        return GatewayConfiguration(
            server: server,
            upstream: .haapi(upstream),
            templates: TemplateSettings(directory: templatesDirectory),
            callbacks: [.file(path: sinkPath)]
        )
    }

    /// Runs `body` with a browser on a gateway in front of a fresh demo server, by default in its strict mode (session id
    /// only in `Set-Session-Id`, DPoP nonces per key, token-bound codes, a stickiness cookie: docs/curity-compatibility.md).
    static func withGateway(
        logger: Logger = Logger(label: "gateway-test"),
        demoConfiguration: DemoServerConfiguration = .strict,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        drain: GatewayDrain = GatewayDrain(),
        metrics: GatewayMetrics = GatewayMetrics(),
        reloader: GatewayReloader = GatewayReloader(),
        configure: (inout GatewayConfiguration) -> Void = { _ in },
        upstream: ((RunningDemoServer) -> HAAPIClientConfiguration)? = nil,
        demoOutbox: (@Sendable () -> [UInt8])? = nil,
        routes: GatewayRoutes? = nil,
        storage: GatewayStorageChoice = .bySessionsStore,
        _ body: @escaping @Sendable (TestBrowser, RunningDemoServer, String) async throws -> Void
    ) async throws {
        let demo = try await DemoServer.start(configuration: demoConfiguration)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sinkPath = directory.appendingPathComponent("outcome.json").path
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            var configuration = configuration(demo: demo, sinkPath: sinkPath)
            if let upstream { configuration.upstream = .haapi(upstream(demo)) }
            configure(&configuration)
            let application = try await Gateway.makeApplication(
                configuration: configuration,
                logger: logger,
                drain: drain,
                metrics: metrics,
                reloader: reloader,
                now: now,
                demoOutbox: demoOutbox,
                storageChoice: storage
            )
            try await routes?.read(from: application)
            let publicHost = configuration.server.publicBaseURL?.host
            try await application.test(.live) { client in
                let browser = TestBrowser(baseURL: "http://127.0.0.1:\(client.port!)")
                // Behind server.publicURL the gateway answers only for its host: the browser names it, as through a proxy.
                if let publicHost { browser.address(as: publicHost) }
                do {
                    try await body(browser, demo, sinkPath)
                } catch {
                    try? await browser.shutdown()
                    throw error
                }
                try await browser.shutdown()
            }
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }
}

/// The routes of a gateway's pages, as its router registered them (method and path), read by
/// ``GatewayHarness/withGateway(logger:demoConfiguration:now:drain:metrics:reloader:configure:upstream:demoOutbox:routes:storage:_:)``
/// before the test's body runs: for tests that go through every route, including one added after they were written.
final class GatewayRoutes: Sendable {
    private let routes = Mutex<[(method: HTTPRequest.Method, path: RouterPath)]>([])

    /// Every route, in the router's order.
    var all: [(method: HTTPRequest.Method, path: RouterPath)] { routes.withLock { $0 } }

    func read(from application: some ApplicationProtocol) async throws {
        let responder = try await application.responder
        let pages = try #require(
            responder as? NormalizedRequestResponder<RouterResponder<GatewayRequestContext>>,
            "the gateway's responder is \(type(of: responder)), not the normalising responder around its router"
        )
        routes.withLock { $0 = pages.routes }
    }
}
