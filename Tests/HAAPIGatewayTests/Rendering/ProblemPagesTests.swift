import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Gateway problem pages")
struct ProblemPagesTests {
    @Test("invalid-input re-renders the step with each field's error beside it (aria-describedby), values kept except passwords")
    func invalidInputShowsFieldErrors() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let form = try await browser.openPasswordForm()
            let page = try await browser.submit(form, ["userName": "demo<b>", "password": ""])
            let again = try #require(page.forms.first { $0.inputs.contains { $0.type == "password" } })
            #expect(page.html.contains(#"aria-describedby="f-0-password-error""#))
            #expect(page.html.contains(#"<p class="field-error" id="f-0-password-error">"#))
            #expect(again.fields["userName"] == "demo<b>", "typed value kept")
            #expect(page.html.contains("demo&lt;b&gt;") && !page.html.contains("demo<b>"), "escaped")
            #expect(again.fields["password"] == "", "passwords never echoed")
        }
    }

    @Test("incorrect credentials re-render the same step with the upstream's message; the right password then signs in")
    func incorrectCredentialsRerender() async throws {
        try await GatewayHarness.withGateway { browser, _, sinkPath in
            let form = try await browser.openPasswordForm()
            let wrong = try await browser.submit(form, ["userName": "demo", "password": "nope"])
            #expect(wrong.html.contains(#"class="notice" role="alert""#))
            let retry = try #require(wrong.forms.first { $0.inputs.contains { $0.type == "password" } })
            #expect(retry.fields["userName"] == "demo", "the username is kept")
            #expect(retry.fields["password"] == "", "the password is never echoed back")
            let notice = try await browser.submit(retry, ["userName": "demo", "password": "demo"])
            _ = try await browser.submit(try notice.form(button: "Continue"))
            #expect(FileManager.default.fileExists(atPath: sinkPath))
        }
    }

    @Test("an unknown or expired session cookie shows 'session expired' with Start again, which starts a new sign-in")
    func unknownSessionShowsExpiredPage() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            _ = try await browser.get("/")
            let stale = TestBrowser(baseURL: browser.baseURL)
            let page = try await stale.post("/step/1/action/0.0", body: "_csrf=x", headers: [("Cookie", "haapi-gateway=unknown")])
            #expect(page.html.contains("Session expired"))
            let expired = try await stale.send(cookie: "haapi-gateway=unknown")
            #expect(expired.html.contains("Session expired"))
            let startAgain = try expired.form(button: "Start again")
            let restarted = try await stale.submit(startAgain)
            #expect(restarted.html.contains("Select Authentication Method"))
            try await stale.shutdown()
        }
    }
}
