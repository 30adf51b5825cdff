import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
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

    @Test("an upstream that is gone is the person's 'try again', its kind counted; a page's calls share one deadline")
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
            // Every upstream call of the page shares one deadline, twice the timeout ahead (HAAPIDeadline).
            let before = ContinuousClock.now
            var deadline: ContinuousClock.Instant?
            try await driver.withinPageBudget { () async throws(GatewayError) in deadline = HAAPIDeadline.current }
            let set = try #require(deadline)
            #expect(set >= before + driver.pageBudget && set <= ContinuousClock.now + driver.pageBudget)
        }
    }
}
