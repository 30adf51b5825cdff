import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Gateway when the upstream is down")
struct UpstreamDownTests {
    @Test("upstream down: a page says so with Try again; the session and its step are kept")
    func upstreamDownKeepsSession() async throws {
        try await GatewayHarness.withGateway { browser, demo, _ in
            let form = try await browser.openPasswordForm()
            await demo.shutdown()
            let down = try await browser.submit(form, ["userName": "demo", "password": "demo"])
            #expect(down.status == 502)
            #expect(down.html.contains("Sign-in service unavailable"))
            #expect(down.html.contains(#"<a href="/">Try again</a>"#))
            #expect(!down.html.contains("demo\""))
            let again = try await browser.get("/")
            #expect(again.forms.contains { $0.action == form.action }, "same step, same session")
        }
    }
}
