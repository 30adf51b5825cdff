import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// Upstream faults through a fault-injecting proxy: the person gets a "try again" page within the upstream timeout,
    /// the sign-in under way is kept, and once the upstream recovers the same page goes on.
    @Suite("Upstream faults")
    struct UpstreamFaultTests {
        static let faults: [UpstreamFault] = [
            .answer(status: 500, contentType: "application/json", body: #"{"error":"server_error"}"#),
            .answer(status: 502, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>"),
            .answer(status: 503, contentType: "text/html", body: "<html><body>Service Unavailable</body></html>"),
            .answer(
                status: 200,
                contentType: "text/html; charset=utf-8",
                body: "<!DOCTYPE html><html><body>Please log in to the proxy</body></html>"
            ),
            .answer(
                status: 200,
                contentType: "application/vnd.auth+json",
                body: #"{"type":"authentication-step","actions":[{"template":"form","kind":"login","model":{"href":"/x"#
            ),
            .answer(status: 200, contentType: "application/vnd.auth+json", body: #"{"type":42,"actions":"none","messages":{}}"#),
            .answer(status: 200, contentType: "application/vnd.auth+json", body: "[]"),
            .answer(status: 400, contentType: "application/problem+json", body: #"{"type":["not","a","string"]}"#),
            .silence(seconds: 60),
            .slowBody(body: #"{"type":"authentication-step","actions":[],"messages":[{"text":"slow"}]}"#, millisecondsPerByte: 500),
            .nonceStorm,
        ]

        /// A configuration change: the upstream's timeout.
        static func upstreamTimeout(_ timeout: Duration) -> @Sendable (inout GatewayConfiguration) -> Void {
            { configuration in
                guard case .haapi(var upstream) = configuration.upstream else { return }
                upstream.requestTimeout = timeout
                configuration.upstream = .haapi(upstream)
            }
        }

        @Test(
            "each fault on a form post: a 'try again' page within the timeout, the step kept, and it goes on once the upstream is back",
            arguments: faults
        )
        func faultOnAFormPost(_ fault: UpstreamFault) async throws {
            try await GatewayHarness.withProxiedGateway(configure: Self.upstreamTimeout(.seconds(6))) { browser, _, _, proxy in
                let form = try await browser.openPasswordForm()
                proxy.fault = fault
                let started = ContinuousClock.now
                let failed = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                let took = ContinuousClock.now - started
                #expect(failed.status == 502, "\(failed.status): \(failed.html.prefix(300))")
                #expect(failed.html.contains(#"<a href="/">Try again</a>"#))
                #expect(
                    !failed.html.contains("Bad Gateway") && !failed.html.contains("proxy") && !failed.html.contains("server_error"),
                    "nothing of the upstream's answer is shown"
                )
                #expect(took < .seconds(30), "answered within the timeout (and then some for a loaded machine): \(took); \(MachineLoad.description)")
                #expect(proxy.faultCount >= 1)
                proxy.fault = nil
                let again = try await browser.get("/")
                let retry = try #require(again.forms.first { $0.action == form.action }, "the same step is kept")
                let notice = try await browser.submit(retry, ["userName": "demo", "password": "demo"])
                let done = try await browser.submit(try notice.form(button: "Continue"))
                #expect(done.html.contains("You are signed in"))
            }
        }

        @Test(
            "upstream.timeoutSeconds bounds a person's request as a whole: a post whose chain of automatic steps is slow call by call gets the 'try again' page, the step kept"
        )
        func aChainOfSlowCallsIsBoundedAsAWhole() async throws {
            try await GatewayHarness.withProxiedGateway(configure: Self.upstreamTimeout(.seconds(2))) { browser, _, _, proxy in
                let form = try await browser.openPasswordForm()
                // demo/demo answers the password with a redirection step the gateway follows: two calls of 1.2 s each,
                // each within the 2 s timeout, 2.4 s together.
                proxy.fault = .delay(milliseconds: 1200)
                let started = ContinuousClock.now
                let failed = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                let took = ContinuousClock.now - started
                proxy.fault = nil
                #expect(failed.status == 502, "the chain took longer than the timeout as a whole: \(failed.status), \(took)")
                #expect(failed.html.contains(#"<a href="/">Try again</a>"#))
                #expect(proxy.faultCount == 2, "the second call was sent with what was left of the 2 s")
                let again = try await browser.get("/")
                #expect(again.forms.contains { $0.action == form.action }, "the step is kept")
            }
        }

        @Test(
            "a page is bounded as a whole, twice upstream.timeoutSeconds: the last step, the code exchange and userinfo each slow but within the timeout, userinfo gets only what the page has left and the outcome says so"
        )
        func aPageIsBoundedAsAWhole() async throws {
            try await GatewayHarness.withProxiedGateway(
                configure: {
                    Self.upstreamTimeout(.seconds(2))(&$0)
                    $0.outcome = OutcomeSettings(idTokenClaims: [], userinfoClaims: ["preferred_username"])
                }
            ) { browser, _, sinkPath, proxy in
                // A first sign-in fetches the ID token's keys, so that the second's calls are the step, the exchange and userinfo.
                #expect(try await browser.signInAsDemo().html.contains("You are signed in"))
                try await TestBrowser.using(browser.baseURL) { person in
                    let notice = try await person.submit(try await person.openPasswordForm(), ["userName": "demo", "password": "demo"])
                    // Each call 1.5 s, each within the 2 s timeout: the step and the exchange leave 1 s of the page's 4 s.
                    proxy.fault = .delay(milliseconds: 1500)
                    let done = try await person.submit(try notice.form(button: "Continue"))
                    proxy.fault = nil
                    #expect(done.html.contains("You are signed in"), "the sign-in completes: \(done.html.prefix(300))")
                }
                // The page waited for the sink only briefly (its budget was spent): the outcome may reach the file just after.
                var outcome: [String: Any] = [:]
                for _ in 0..<100 {
                    outcome = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sinkPath)))) as? [String: Any] ?? [:]
                    if outcome["claimsProblem"] != nil { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(outcome["outcome"] as? String == "success")
                #expect((outcome["claimsProblem"] as? String)?.hasPrefix("userinfo:") == true, "userinfo ran out of the page's budget: \(outcome)")
                #expect((outcome["claims"] as? [String: Any])?["preferred_username"] == nil)
            }
        }

        @Test("a code exchange answered by a 503 of a proxy (never reaching the server) is sent once more and the sign-in completes")
        func codeExchangeIsSentOnceMoreAfterA5xx() async throws {
            try await GatewayHarness.withProxiedGateway { browser, _, _, proxy in
                let notice = try await browser.submit(try await browser.openPasswordForm(), ["userName": "demo", "password": "demo"])
                proxy.fault = .answerOnce(pathSuffix: "/oauth-token", status: 503)
                let done = try await browser.submit(try notice.form(button: "Continue"))
                #expect(done.html.contains("You are signed in"), "\(done.html.prefix(400))")
                #expect(proxy.faultCount == 1)
            }
        }

        @Test("a fault when a sign-in starts: a 'try again' page, no session left behind, and Try again starts one")
        func faultAtStart() async throws {
            try await GatewayHarness.withProxiedGateway { browser, _, _, proxy in
                proxy.fault = .answer(status: 503, contentType: "text/html", body: "<html>down</html>")
                let failed = try await browser.get("/")
                #expect(failed.status == 502)
                #expect(failed.html.contains("Try again"))
                #expect(browser.cookies.isEmpty)
                proxy.fault = nil
                let selector = try await browser.get("/")
                #expect(selector.html.contains("Username and password"))
            }
        }
    }
}
