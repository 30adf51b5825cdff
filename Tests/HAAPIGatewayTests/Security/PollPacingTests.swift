import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// A waiting page's status and poll routes reach the upstream at most once per the step's interval for one sign-in
    /// (``PollCadence``): one session asking fifty times at once cannot drive the upstream's load or use up the
    /// gateway client's budget; sooner requests are answered from the last result.
    @Suite("Polling paced per sign-in")
    struct PollPacingTests {
        /// Upstream polls the proxy forwarded (the demo's poll action).
        static func polls(_ proxy: UpstreamProxy) -> Int {
            proxy.traffic.filter { $0.hasPrefix("GET ") && $0.contains("/approval/poller") }.count
        }

        @Test(
            "fifty status checks and reloads in a row reach the upstream once per interval; a page checking at its interval is never held back; approval shows within one"
        )
        func burstIsPaced() async throws {
            try await GatewayHarness.withProxiedGateway { browser, demo, _, proxy in
                let selector = try await browser.get("/")
                let login = try await browser.submit(try selector.form(button: "Approve on another device"))
                let form = try #require(login.forms.first { $0.inputs.contains { $0.type == "password" } })
                let pending = try await browser.submit(form, ["userName": "poll", "password": "poll"])
                let status = try #require(ScrapedForm.matches(#"data-status-url="([^"]+)""#, in: pending.html).first)
                let refresh = try #require(
                    ScrapedForm.matches(#"<meta http-equiv="refresh" content="2; ?url=([^"]+)">"#, in: pending.html).first,
                    "the demo's interval is 2 s"
                )
                let before = Self.polls(proxy)
                let started = ContinuousClock.now
                for index in 0..<50 {
                    let answer = try await browser.get(index.isMultiple(of: 2) ? status : refresh)
                    #expect(answer.status == 200)
                }
                let elapsed = ContinuousClock.now - started
                let made = Self.polls(proxy) - before
                // The first reaches the upstream; then one more per 1.5 s (three quarters of the 2 s interval) at most,
                // however long fifty requests take on a loaded machine.
                let allowed = 1 + Int(elapsed / .milliseconds(1500))
                #expect(made >= 1 && made <= allowed, "\(made) upstream polls for 50 requests in \(elapsed) (at most \(allowed))")
                #expect(made < 50)

                // A page checking at its interval reaches the upstream every time.
                try await Task.sleep(for: .seconds(2))
                let beforeCheck = Self.polls(proxy)
                _ = try await browser.get(status)
                #expect(Self.polls(proxy) == beforeCheck + 1, "a check one interval after the last reaches the upstream")

                try await DemoSideChannel.decideApproval(demo, approve: true)
                #expect(try await browser.statusOnceChanged(status).html == #"{"changed":true}"#)
                #expect(try await browser.get("/").html.contains("You are signed in"))
            }
        }
    }
}
