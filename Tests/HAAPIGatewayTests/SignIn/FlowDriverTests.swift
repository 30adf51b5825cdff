import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Synchronization
import Testing

@testable import HAAPIGateway

/// ``FlowDriver``: a request's upstream call within one timeout, counted, and any failure the person's "try again".
@Suite("Driving a sign-in's flow")
struct FlowDriverTests {
    private func withDriver(_ body: (FlowDriver, GatewayMetrics, RunningDemoServer) async throws -> Void) async throws {
        let demo = try await DemoServer.start(configuration: .strict)
        let client = try await HAAPIClient(
            configuration: HAAPIClientConfiguration(
                baseURL: demo.issuerURL,
                clientID: DemoServer.clientID,
                clientAuthentication: .secretBasic(DemoServer.clientSecret),
                redirectURI: DemoServer.redirectURI,
                scopes: ["openid"],
                // Generous: nothing here is about time, and a test machine busy with every suite at once is slow.
                connectTimeout: .seconds(30),
                requestTimeout: .seconds(30)
            )
        )
        let metrics = GatewayMetrics()
        let driver = FlowDriver(
            flow: client.makeFlow(),
            metrics: metrics,
            logger: FlowLogger(Logger(label: "driver-test"), key: "flow", value: "test")
        )
        do {
            try await body(driver, metrics, demo)
        } catch {
            try? await client.shutdown()
            await demo.shutdown()
            throw error
        }
        try await client.shutdown()
        await demo.shutdown()
    }

    @Test("a request's call and its automatic steps answer a step, counted for its endpoint")
    func answersAndCounts() async throws {
        try await withDriver { driver, metrics, _ in
            let response = try await driver.response(endpoint: .haapi) { flow throws(HAAPIError) in
                try await flow.followAutomaticSteps(from: try await flow.start())
            }
            #expect(response.representation?.stepKind == .authenticatorSelector)
            #expect(metrics.exposition().contains(#"haapi_gateway_upstream_duration_seconds_count{endpoint="haapi"} 1"#))
            #expect(driver.pageBudget == .seconds(60), "twice upstream.timeoutSeconds")
        }
    }

    @Test("an upstream that is gone is the person's 'try again', its kind counted")
    func failuresAreTryAgain() async throws {
        try await withDriver { driver, metrics, demo in
            await demo.shutdown()
            let error = await #expect(throws: GatewayError.self) {
                _ = try await driver.response(endpoint: .haapi) { flow throws(HAAPIError) in try await flow.start() }
            }
            #expect(error?.code == .upstreamUnavailable)
            #expect(
                metrics.exposition().split(separator: "\n").contains { $0.hasPrefix("haapi_gateway_upstream_errors_total{") && !$0.hasSuffix(" 0") },
                "a kind counted (every kind is there from the start, at 0)"
            )
        }
    }

    @Test(
        "a page's calls share one deadline, twice the upstream timeout: each call gets at most what is left of it, and none is sent once it has passed"
    )
    func pageCallsShareOneDeadline() async throws {
        // An upstream that never answers: every request it is sent runs out its whole time limit, as a silent server's
        // would. Three calls of 500 ms each would take 1.5 s; the page's budget is 1 s.
        let upstream = SilentUpstream()
        let client = try await HAAPIClient(
            configuration: HAAPIClientConfiguration(
                baseURL: URL(string: "http://127.0.0.1:9/oauth/v2/oauth-anonymous")!,
                endpoints: HAAPIEndpoints(
                    authorization: URL(string: "http://127.0.0.1:9/oauth/v2/oauth-authorize")!,
                    token: URL(string: "http://127.0.0.1:9/oauth/v2/oauth-token")!
                ),
                clientID: DemoServer.clientID,
                clientAuthentication: .secretBasic(DemoServer.clientSecret),
                redirectURI: DemoServer.redirectURI,
                scopes: ["openid"],
                connectTimeout: .milliseconds(500),
                requestTimeout: .milliseconds(500)
            ),
            transport: upstream
        )
        defer { Task { try? await client.shutdown() } }
        let metrics = GatewayMetrics()
        let driver = FlowDriver(
            flow: client.makeFlow(),
            metrics: metrics,
            logger: FlowLogger(Logger(label: "driver-test"), key: "flow", value: "test")
        )
        #expect(driver.pageBudget == .seconds(1))
        let before = ContinuousClock.now
        var deadline: ContinuousClock.Instant?
        var set = ContinuousClock.now
        var failures: [GatewayError] = []
        try await driver.withinPageBudget { () async throws(GatewayError) in
            deadline = HAAPIDeadline.current
            set = ContinuousClock.now
            // Three calls of the page, each the start of a flow (a flow starts once): what bounds them is the page's.
            for _ in 1...3 {
                do throws(GatewayError) {
                    _ = try await driver.response(endpoint: .haapi) { _ throws(HAAPIError) in try await client.makeFlow().start() }
                } catch {
                    failures.append(error)
                }
            }
        }
        // One deadline for the page, twice the timeout ahead (HAAPIDeadline), set when the page began.
        let pageDeadline = try #require(deadline, "the page runs under a deadline")
        #expect(pageDeadline >= before + driver.pageBudget && pageDeadline <= set + driver.pageBudget)
        #expect(failures.map(\.code) == [.upstreamUnavailable, .upstreamUnavailable, .upstreamUnavailable], "each call is the person's 'try again'")
        let granted = upstream.timeLimits
        // The first call had its own 500 ms at most, the second what was left of the page's second (less than 500 ms: the
        // first used its whole time; nothing at all when a loaded machine took the rest between the two), and the third
        // nothing: it was never sent. Each with its own timeout, three would have been sent with 500 ms each.
        #expect((1...2).contains(granted.count), "requests sent: \(granted)")
        #expect(granted.allSatisfy { $0 <= .milliseconds(500) }, "\(granted)")
        #expect(granted.reduce(.zero, +) <= driver.pageBudget, "the calls' time limits add up to more than the page's: \(granted)")
        #expect(metrics.exposition().contains(#"haapi_gateway_upstream_errors_total{kind="timeout"} 3"#), "\(metrics.exposition())")
    }
}

/// A HAAPI upstream that never answers: each request waits out the time limit the client gave it (recorded), then fails
/// as timed out, as the client's own transport fails against a server that is silent.
private final class SilentUpstream: HAAPITransport, Sendable {
    private let limits = Mutex<[Duration]>([])

    /// The time limit of every request sent, in order.
    var timeLimits: [Duration] { limits.withLock { $0 } }

    func send(_ request: HTTPRequestData, timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponseData {
        limits.withLock { $0.append(timeout) }
        try await Task.sleep(for: timeout)
        throw HAAPIError(.timeout, "no answer to \(request.method) \(request.url.path) within \(timeout)")
    }
}
