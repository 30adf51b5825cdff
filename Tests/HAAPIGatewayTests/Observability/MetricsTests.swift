import Foundation
import HAAPI
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Metrics")
struct MetricsTests {
    private static func lines(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
    }

    @Test("every series docs/operations.md documents is there from the start, at 0, with every label value it lists")
    func everyDocumentedSeriesStartsAtZero() throws {
        let documented = try DocumentedMetric.all()
        #expect(documented.count == 14, "the table of docs/operations.md § Metrics")
        let problems = DocumentedMetric.problems(in: GatewayMetrics().exposition(), against: documented)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        let kinds = documented.first { $0.name == "haapi_gateway_upstream_errors_total" }?.values
        #expect(kinds == HAAPIError.Code.allCases.map(\.description) + ["invalid_id_token"], "every HAAPIError code is documented")
    }

    @Test("a sign-in is counted: flows, steps by type, upstream latency by endpoint, callback deliveries")
    func signInIsCounted() async throws {
        let metrics = GatewayMetrics()
        try await GatewayHarness.withGateway(metrics: metrics) { browser, _, _ in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
        }
        let text = metrics.exposition()
        let lines = Self.lines(text)
        #expect(lines.contains("haapi_gateway_flows_started_total 1"))
        #expect(lines.contains(#"haapi_gateway_flows_completed_total{outcome="success"} 1"#))
        #expect(lines.contains(#"haapi_gateway_steps_rendered_total{type="authentication-step"} 3"#), "selector, login form, notice")
        #expect(lines.contains(#"haapi_gateway_callback_deliveries_total{result="delivered"} 1"#))
        #expect(lines.contains(#"haapi_gateway_upstream_duration_seconds_count{endpoint="token"} 1"#))
        #expect(lines.contains { $0.hasPrefix(#"haapi_gateway_upstream_duration_seconds_count{endpoint="authorize"}"#) && !$0.hasSuffix(" 0") })
    }

    @Test("upstream failures are counted by kind")
    func upstreamErrorsAreCounted() async throws {
        let metrics = GatewayMetrics()
        try await GatewayHarness.withGateway(metrics: metrics) { browser, demo, _ in
            let form = try await browser.openPasswordForm()
            await demo.shutdown()
            _ = try await browser.submit(form, ["userName": "demo", "password": "demo"])
        }
        #expect(
            Self.lines(metrics.exposition()).contains {
                $0.hasPrefix(#"haapi_gateway_upstream_errors_total{kind="connectionRefused"}"#) && !$0.hasSuffix(" 0")
            }
        )
    }
}
