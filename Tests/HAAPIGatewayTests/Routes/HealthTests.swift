import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Health, readiness and draining")
struct HealthTests {
    @Test("/healthz answers while alive; /readyz follows the upstream")
    func readinessFollowsTheUpstream() async throws {
        try await GatewayHarness.withGateway { browser, demo, _ in
            let alive = try await browser.get("/healthz")
            #expect(alive.status == 200)
            #expect(alive.html == #"{"status":"alive"}"#)
            #expect(alive.header("Cache-Control") == "no-store")
            // The probe answers from a cache of up to a second; a loaded machine may need a moment for the first one.
            var ready = try await browser.get("/readyz")
            for _ in 0..<20 where ready.status != 200 {
                try await Task.sleep(for: .milliseconds(500))
                ready = try await browser.get("/readyz")
            }
            #expect(ready.status == 200)
            #expect(ready.html.contains(#""ready":true"#))
            #expect(ready.html.contains(#""templates":"renderable""#) && ready.html.contains(#""upstream":"reachable""#), "\(ready.html)")
            await demo.shutdown()
            // /readyz answers at once with its checks' last answers (a check slower than 80 ms, on a loaded machine, is
            // answered next time): the outage shows within seconds.
            try await Task.sleep(for: .milliseconds(1100))
            var down = try await browser.get("/readyz")
            for _ in 0..<40 where down.status != 503 {
                try await Task.sleep(for: .milliseconds(250))
                down = try await browser.get("/readyz")
            }
            #expect(down.status == 503)
            #expect(down.html.contains(#""upstream":"unreachable""#))
            #expect(try await browser.get("/healthz").status == 200, "alive all the same")
        }
    }

    @Test(
        "/readyz checks that a HAAPI token is obtainable: an upstream whose discovery answers but whose token endpoint refuses the client is not ready"
    )
    func readinessNeedsAHAAPIToken() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, _, proxy in
            proxy.fault = .answer(status: 401, contentType: "application/json", body: #"{"error":"invalid_client"}"#)
            // /readyz answers at once with the last answer of its checks; the refusal shows once a check has met it.
            var refused = try await browser.get("/readyz")
            for _ in 0..<40 where !refused.html.contains("no HAAPI token") {
                try await Task.sleep(for: .milliseconds(250))
                refused = try await browser.get("/readyz")
            }
            #expect(refused.status == 503)
            #expect(refused.html.contains(#""upstream":"reachable, but no HAAPI token ("#), "\(refused.html)")
        }
    }

    @Test("/readyz checks that the pages render: an override template that renders nothing makes the gateway not ready, naming it")
    func readinessNeedsRenderablePages() async throws {
        let overrides = FileManager.default.temporaryDirectory.appendingPathComponent("empty-override-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: overrides, withIntermediateDirectories: true)
        try "  \n".write(to: overrides.appendingPathComponent("message.mustache"), atomically: true, encoding: .utf8)
        try await GatewayHarness.withGateway(configure: { $0.templates.overrideDirectory = overrides }) { browser, _, _ in
            let page = try await browser.get("/readyz")
            #expect(page.status == 503)
            #expect(page.html.contains(#""templates":"not renderable (message.mustache renders no page)""#), "\(page.html)")
        }
    }

    @Test("while draining: readiness is down, a new sign-in gets a 'restarting' page, one under way goes on")
    func draining() async throws {
        let drain = GatewayDrain()
        try await GatewayHarness.withGateway(drain: drain) { browser, _, sinkPath in
            let form = try await browser.openPasswordForm()
            drain.begin()
            let ready = try await browser.get("/readyz")
            #expect(ready.status == 503)
            #expect(ready.html.contains(#""draining":true"#))
            try await TestBrowser.using(browser.baseURL) { newcomer in
                let refused = try await newcomer.get("/")
                #expect(refused.status == 503)
                #expect(refused.header("Retry-After") == "5")
                #expect(refused.html.contains("restarting"))
            }
            let notice = try await browser.submit(form, ["userName": "demo", "password": "demo"])
            let done = try await browser.submit(try notice.form(button: "Continue"))
            #expect(done.html.contains("You are signed in"))
            #expect(FileManager.default.fileExists(atPath: sinkPath))
        }
    }
}
