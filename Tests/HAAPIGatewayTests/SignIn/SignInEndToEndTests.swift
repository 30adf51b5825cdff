import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Gateway sign-in, end to end against the demo server")
struct SignInEndToEndTests {
    @Test("demo/demo signs in through every page; the file sink receives the token model once; no token reaches the browser")
    func demoSignInDeliversTokensToFileSink() async throws {
        try await GatewayHarness.withGateway { browser, _, sinkPath in
            let selector = try await browser.get("/")
            #expect(selector.status == 200)
            #expect(selector.html.contains("<h1>Select Authentication Method</h1>"))
            #expect(selector.forms.count >= 4, "one button per authenticator option")

            let login = try await browser.submit(try selector.form(button: "Username and password"))
            let loginForm = try #require(login.forms.first { $0.inputs.contains { $0.type == "password" } })
            #expect(login.html.contains("Forgot your password?"), "links are rendered as gateway buttons")

            let notice = try await browser.submit(loginForm, ["userName": "demo", "password": "demo"])
            #expect(notice.html.contains("<h1>Welcome, Demo User</h1>"), "a heading message names the page")
            #expect(notice.html.components(separatedBy: "<h1>").count == 2, "exactly one h1")
            let copied = try await browser.submit(try notice.form(button: "Email me a copy"))
            #expect(copied.forms.contains { $0.button == "Continue" }, "continue-same-step keeps the notice")

            #expect(!FileManager.default.fileExists(atPath: sinkPath))
            let done = try await browser.submit(try copied.form(button: "Continue"))
            #expect(done.html.contains("You are signed in"))

            let data = try Data(contentsOf: URL(fileURLWithPath: sinkPath))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["outcome"] as? String == "success")
            let token = try #require(object["token"] as? [String: Any])
            let accessToken = try #require(token["accessToken"] as? String)
            #expect(Set(token.keys).isSubset(of: ["accessToken", "expiresIn", "refreshToken", "tokenType", "scope", "idToken"]))
            #expect(token["tokenType"] as? String != nil)
            let attributes = try FileManager.default.attributesOfItem(atPath: sinkPath)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(!done.html.contains(accessToken))

            // Reloading the signed-in page neither exchanges nor delivers again.
            try FileManager.default.removeItem(atPath: sinkPath)
            let again = try await browser.get("/")
            #expect(again.html.contains("You are signed in"))
            #expect(!FileManager.default.fileExists(atPath: sinkPath))
        }
    }

    @Test("with completion.redirectURL the browser is sent on to it once the tokens are handed over; the signed-in page links to it")
    func signedInPageLinksToCompletionURL() async throws {
        try await GatewayHarness.withGateway(configure: { $0.completion.redirectURL = URL(string: "https://app.example/done?x=1&y=2") }) {
            browser,
            _,
            _ in
            let done = try await browser.signInAsDemo()
            #expect(done.status == 303)
            #expect(done.header("Location") == "https://app.example/done?x=1&y=2")
            let again = try await browser.get("/")
            #expect(again.html.contains(#"<a href="https://app.example/done?x=1&amp;y=2">Continue</a>"#))
        }
    }
}
