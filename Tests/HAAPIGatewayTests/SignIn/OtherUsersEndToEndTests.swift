import Foundation
import HAAPIDemoServer
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Gateway sign-in for the otp, consent and poll users")
struct OtherUsersEndToEndTests {
    private func login(_ browser: TestBrowser, option: String, user: String) async throws -> TestBrowser.Page {
        let selector = try await browser.get("/")
        let login = try await browser.submit(try selector.form(button: option))
        let form = try #require(login.forms.first { $0.inputs.contains { $0.type == "password" } })
        return try await browser.submit(form, ["userName": user, "password": user])
    }

    private func refreshTarget(_ page: TestBrowser.Page) -> (seconds: Int, url: String)? {
        guard let match = ScrapedForm.matches(#"<meta http-equiv="refresh" content="([^"]+)">"#, in: page.html).first else { return nil }
        let parts = match.split(separator: ";", maxSplits: 1)
        guard parts.count == 2, let seconds = Int(parts[0]) else { return nil }
        return (seconds, String(parts[1].drop { $0 == " " }.dropFirst("url=".count)))
    }

    @Test("otp/otp: a wrong code shows the field error; the code from the outbox signs in")
    func oneTimeCode() async throws {
        try await GatewayHarness.withGateway { browser, demo, sinkPath in
            let codePage = try await login(browser, option: "Email one-time code", user: "otp")
            let codeForm = try #require(codePage.forms.first { $0.inputs.contains { $0.name == "otp" } })
            #expect(codePage.html.contains(#"<label for="f-0-otp">OTP code</label>"#))
            let wrong = try await browser.submit(codeForm, ["otp": "000000"])
            #expect(wrong.html.contains(#"aria-describedby="f-0-otp-error""#))
            let code = try #require(try await DemoSideChannel.outbox(demo).first { $0["code"] is String }?["code"] as? String)
            let retry = try #require(wrong.forms.first { $0.inputs.contains { $0.name == "otp" } })
            let done = try await browser.submit(retry, ["otp": code])
            #expect(done.html.contains("You are signed in"))
            #expect(FileManager.default.fileExists(atPath: sinkPath))
        }
    }

    @Test("consent/consent: checkboxes render checked; an unchecked scope is not granted; a read-only box is sent as the step has it")
    func consentCheckboxes() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, sinkPath, proxy in
            let consent = try await login(browser, option: "Username and password", user: "consent")
            var form = try #require(consent.forms.first { $0.inputs.contains { $0.type == "checkbox" } })
            let boxes = form.inputs.filter { $0.type == "checkbox" }
            #expect(boxes.count == 3)
            // Uncheck the box labelled email, as a person would.
            let emailID = try #require(
                ScrapedForm.matches(#"<input id="([^"]+)"[^>]*type="checkbox"[^>]*>\s*<label for="[^"]+">email</label>"#, in: consent.html).first
            )
            let emailName = try #require(ScrapedForm.matches(#"<input id="\#(emailID)" name="([^"]+)""#, in: consent.html).first)
            form.fields[emailName] = nil
            // The read-only openid box is drawn disabled, which a browser never sends: its state comes from the step.
            #expect(consent.html.contains(#"name="consent.scope.openid" type="checkbox" checked disabled"#))
            form.fields["consent.scope.openid"] = nil
            let done = try await browser.submit(form)
            #expect(done.html.contains("You are signed in"))
            let consentPost = try #require(proxy.traffic.first { $0.hasPrefix("POST ") && $0.contains("consent.scope.") })
            #expect(consentPost.contains("consent.scope.openid=on"), "the read-only box went upstream checked: \(consentPost)")
            #expect(!consentPost.contains("consent.scope.email="))
            let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any]
            let scope = (object?["token"] as? [String: Any])?["scope"] as? String ?? ""
            #expect(scope.contains("openid") && !scope.contains("email"))
        }
    }

    @Test("poll/poll: the pending page refreshes itself to the poll route; approval moves on to signed in")
    func pollingApproved() async throws {
        try await GatewayHarness.withGateway { browser, demo, sinkPath in
            let pending = try await login(browser, option: "Approve on another device", user: "poll")
            let refresh = try #require(refreshTarget(pending))
            // The demo sends Curity's `interval` in milliseconds ("2000"): the page checks again every 2 s.
            #expect(refresh.seconds == 2)
            #expect(refresh.url.hasSuffix("/poll"))
            #expect(
                pending.html.contains(#"<figure class="qr"><svg xmlns="http://www.w3.org/2000/svg" class="qr-code""#),
                "a QR code of the approval link, drawn by the gateway"
            )
            #expect(pending.html.contains(#"aria-label="Scan to approve on another device""#))
            let still = try await browser.get(refresh.url)
            let next = try #require(refreshTarget(still), "still pending")
            try await DemoSideChannel.decideApproval(demo, approve: true)
            let done = try await browser.pageOnceMovedOn(next.url)
            #expect(done.html.contains("You are signed in"))
            #expect(FileManager.default.fileExists(atPath: sinkPath))
        }
    }

    @Test(
        "sms/sms: Send code answers continue-same-step; the page shows the code form under the new message; too many wrong codes keep it; the new code signs in"
    )
    func continueActionsAfterContinueSameStep() async throws {
        try await GatewayHarness.withGateway { browser, demo, sinkPath in
            let send = try await login(browser, option: "Username and password", user: "sms")
            #expect(send.html.contains("We will text a code to +46 70 *** ** 12"), "the action's title heads its form")
            let sent = try await browser.submit(try send.form(button: "Send code"))
            let messages = ScrapedForm.matches(#"<p class="message[^"]*"[^>]*>([^<]+)</p>"#, in: sent.html)
            #expect(messages.first == "SMS sent to +46 70 *** ** 12", "the new message first: \(messages)")
            let codeForm = try sent.form(button: "Verify")
            #expect(!sent.html.contains(">Send code</button>"), "the continue actions replace the submitted form")
            let first = try #require(try await DemoSideChannel.outbox(demo).first { $0["kind"] as? String == "sms-code" }?["code"] as? String)
            // Three wrong codes: too-many-attempts keeps the step (an input problem), and the demo sends a new code.
            var page = sent
            var form = codeForm
            for _ in 1...3 {
                page = try await browser.submit(form, ["otp": first == "000000" ? "111111" : "000000"])
                form = try page.form(button: "Verify")
            }
            #expect(page.html.contains("Too many wrong codes.") && page.html.contains("A new code was sent to +46 70 *** ** 12."))
            let code = try #require(try await DemoSideChannel.outbox(demo).first { $0["kind"] as? String == "sms-code" }?["code"] as? String)
            let done = try await browser.submit(form, ["otp": code])
            #expect(done.html.contains("You are signed in"))
            #expect(FileManager.default.fileExists(atPath: sinkPath))
            // The strict demo's stickiness cookies stayed with the gateway's flow.
            #expect(!(await browser.setCookieHeaders).contains { $0.contains("demo-") })
        }
    }

    @Test("poll/poll: the waiting step's image on the upstream is served from the gateway's origin, never linked to the upstream")
    func upstreamImageServedFromTheGateway() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let pending = try await login(browser, option: "Approve on another device", user: "poll")
            let source = try #require(
                ScrapedForm.matches(#"<img class="link-illustration" src="([^"]+)" alt="Waiting for approval">"#, in: pending.html).first
            )
            #expect(source.hasPrefix("/step/") && source.contains("/image/"))
            #expect(!pending.html.contains("/authn/images/"), "the upstream's address never reaches the page")
            let image = try await browser.get(source)
            #expect(image.status == 200)
            #expect(image.header("Content-Type") == "image/png")
            #expect(image.html.contains("PNG"))
            // Another browser (no session) gets nothing.
            let stranger = try await TestBrowser.using(browser.baseURL) { other in try await other.get(source) }
            #expect(stranger.status == 404)
        }
    }

    @Test("poll/poll with the page's script: the status route answers changed only once the step has moved on")
    func statusRoute() async throws {
        try await GatewayHarness.withGateway { browser, demo, _ in
            let pending = try await login(browser, option: "Approve on another device", user: "poll")
            let status = try #require(ScrapedForm.matches(#"data-status-url="([^"]+)""#, in: pending.html).first)
            #expect(pending.html.contains(#"<script src="/assets/refresh.js" defer></script>"#))
            let unchanged = try await browser.get(status)
            #expect(unchanged.status == 200 && unchanged.html == #"{"changed":false}"#)
            #expect(try await browser.get(status, headers: [("Sec-Fetch-Site", "cross-site")]).status == 403)
            try await DemoSideChannel.decideApproval(demo, approve: true)
            #expect(try await browser.statusOnceChanged(status).html == #"{"changed":true}"#)
            #expect(try await browser.get("/").html.contains("You are signed in"))
        }
    }

    @Test("BankID: the autostart link, then a waiting page with a QR code of it, moving on once approved")
    func bankID() async throws {
        try await GatewayHarness.withGateway { browser, demo, sinkPath in
            let selector = try await browser.get("/")
            let launch = try await browser.submit(try selector.form(button: "BankID"))
            let autostart = try #require(
                ScrapedForm.matches(#"<a href="(bankid:[^"]+)" rel="noopener noreferrer">Open BankID on this device</a>"#, in: launch.html).first
            )
            #expect(autostart.contains("autostarttoken="))
            let waiting = try await browser.submit(try launch.form(button: "Continue"))
            #expect(waiting.html.contains(#"aria-label="Scan the code in BankID security app""#))
            #expect(waiting.html.contains(#"<script src="/assets/refresh.js" defer></script>"#))
            let status = try #require(ScrapedForm.matches(#"data-status-url="([^"]+)""#, in: waiting.html).first)
            #expect(try await browser.get(status).html == #"{"changed":false}"#)
            try await DemoSideChannel.decideApproval(demo, approve: true)
            #expect(try await browser.statusOnceChanged(status).html == #"{"changed":true}"#)
            #expect(try await browser.get("/").html.contains("Welcome") || FileManager.default.fileExists(atPath: sinkPath))
        }
    }

    @Test("a cross-site request to the poll route is refused")
    func crossSitePollRefused() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let pending = try await login(browser, option: "Approve on another device", user: "poll")
            let refresh = try #require(refreshTarget(pending))
            let refused = try await browser.get(refresh.url, headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(refused.status == 403)
            let allowed = try await browser.get(refresh.url, headers: [("Sec-Fetch-Site", "same-origin")])
            #expect(allowed.status == 200)
        }
    }

    @Test("poll/poll denied: the failed polling step shows its message and no refresh")
    func pollingDenied() async throws {
        try await GatewayHarness.withGateway { browser, demo, _ in
            let pending = try await login(browser, option: "Approve on another device", user: "poll")
            let refresh = try #require(refreshTarget(pending))
            try await DemoSideChannel.decideApproval(demo, approve: false)
            let failed = try await browser.get(refresh.url)
            #expect(failed.html.contains("The login was denied on the other device."))
            #expect(refreshTarget(failed) == nil)
        }
    }

    @Test("poll/poll cancel: the step's Cancel action works")
    func pollingCancel() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let pending = try await login(browser, option: "Approve on another device", user: "poll")
            let cancelled = try await browser.submit(try pending.form(button: "Cancel"))
            #expect(cancelled.status == 200)
            #expect(refreshTarget(cancelled) == nil)
        }
    }

    @Test("polling.maximumWaitSeconds ends a pending wait with a clear page")
    func pollingMaximumWait() async throws {
        try await GatewayHarness.withGateway(configure: { $0.polling.maximumWaitSeconds = 0 }) { browser, _, _ in
            let pending = try await login(browser, option: "Approve on another device", user: "poll")
            let refresh = try #require(refreshTarget(pending))
            try await Task.sleep(for: .milliseconds(50))
            let ended = try await browser.get(refresh.url)
            #expect(ended.html.contains("took too long"))
            #expect(ended.forms.contains { $0.button == "Start again" })
        }
    }

    @Test("a polling step's maxWaitTime shorter than polling.maximumWaitSeconds ends the wait at its own time")
    func pollingStepsOwnMaximumWait() async throws {
        var demo = DemoServerConfiguration.strict
        demo.approvalMaxWaitSeconds = 1
        try await GatewayHarness.withGateway(demoConfiguration: demo) { browser, _, _ in
            let pending = try await login(browser, option: "Approve on another device", user: "poll")
            let refresh = try #require(refreshTarget(pending))
            try await Task.sleep(for: .milliseconds(1200))
            let ended = try await browser.get(refresh.url)
            #expect(ended.html.contains("took too long"), "the gateway's own bound (300 s) was not waited for")
        }
    }
}
