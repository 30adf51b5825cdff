import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

@Suite("Passkeys (WebAuthn) through the gateway's pages")
struct PasskeyPageTests {
    /// The origin a browser on `http://localhost:<port>` puts in its client data.
    static let origin = "http://localhost:8080"

    /// The selector's "Passkey" option, then the username form submitted.
    static func passkeyStep(_ browser: TestBrowser, user: String, password: String? = nil) async throws -> TestBrowser.Page {
        let selector = try await browser.get("/")
        let form = try await browser.submit(try selector.form(button: "Passkey"))
        let login = try #require(form.forms.first { $0.inputs.contains { $0.name == "userName" } })
        return try await browser.submit(login, ["userName": user, "password": password ?? ""])
    }

    /// The `publicKey` options the page hands to its script.
    static func options(_ page: TestBrowser.Page) throws -> [String: Any] {
        let attribute = try #require(ScrapedForm.matches(#"data-options="([^"]*)""#, in: page.html).first, "no ceremony in:\n\(page.html)")
        return try #require(try JSONSerialization.jsonObject(with: Data(ScrapedForm.unescape(attribute).utf8)) as? [String: Any])
    }

    static func userHandle(_ options: [String: Any]) -> String? { (options["user"] as? [String: Any])?["id"] as? String }

    static func configureLocalhost(_ configuration: inout GatewayConfiguration) {
        configuration.server.publicBaseURL = URL(string: "http://localhost")
    }

    @Test("a passkey is created, then signs in; the next sign-in needs only the username; credentials reach the upstream as JSON objects")
    func passkeyRegistrationAndSignIn() async throws {
        try await GatewayHarness.withGateway(configure: Self.configureLocalhost) { browser, _, sinkPath in
            var authenticator = SoftwareAuthenticator()
            let registration = try await Self.passkeyStep(browser, user: "demo", password: "demo")
            #expect(registration.html.contains(#"<script src="/assets/webauthn.js" defer></script>"#))
            #expect(registration.html.contains(#"data-webauthn="create""#))
            let creation = try Self.options(registration)
            #expect((creation["rp"] as? [String: Any])?["id"] as? String == "localhost")
            let createForm = try registration.form(button: "Create a passkey")
            #expect(createForm.inputs.map(\.name).sorted() == ["_csrf", "credential"])
            #expect(registration.forms.contains { $0.button == "Sign in with a password instead" }, "the fallback stays on the page")

            let credential = authenticator.registration(SoftwareAuthenticator.creation(creation, origin: Self.origin))
            let authentication = try await browser.submit(createForm, ["credential": SoftwareAuthenticator.json(credential)])
            #expect(authentication.html.contains(#"data-webauthn="get""#), "\(authentication.html)")
            let request = try Self.options(authentication)
            #expect((request["allowCredentials"] as? [[String: Any]])?.first?["id"] as? String == authenticator.credentialIDText)
            let assertion = authenticator.assertion(
                SoftwareAuthenticator.request(request, origin: Self.origin),
                userHandle: Self.userHandle(creation)
            )
            let done = try await browser.submit(
                try authentication.form(button: "Sign in with your passkey"),
                ["credential": SoftwareAuthenticator.json(assertion)]
            )
            #expect(done.html.contains("You are signed in"), "\(done.html)")
            let outcome = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any]
            #expect(outcome?["outcome"] as? String == "success")

            try await TestBrowser.using(browser.baseURL) { second in
                second.address(as: "localhost")
                let step = try await Self.passkeyStep(second, user: "demo")
                #expect(step.html.contains(#"data-webauthn="get""#), "a registered user goes straight to the passkey")
                let again = authenticator.assertion(SoftwareAuthenticator.request(try Self.options(step), origin: Self.origin), userHandle: nil)
                let signedIn = try await second.submit(
                    try step.form(button: "Sign in with your passkey"),
                    ["credential": SoftwareAuthenticator.json(again)]
                )
                #expect(signedIn.html.contains("You are signed in"))
            }
        }
    }

    @Test("a credential the upstream refuses is explained on the passkey page, which keeps the button and the fallback")
    func refusedCredentialIsExplained() async throws {
        try await GatewayHarness.withGateway(configure: Self.configureLocalhost) { browser, _, _ in
            let authenticator = SoftwareAuthenticator()
            let registration = try await Self.passkeyStep(browser, user: "demo", password: "demo")
            let foreign = authenticator.registration(SoftwareAuthenticator.creation(try Self.options(registration), origin: "https://evil.example"))
            let refused = try await browser.submit(
                try registration.form(button: "Create a passkey"),
                ["credential": SoftwareAuthenticator.json(foreign)]
            )
            #expect(refused.html.contains("The passkey was not accepted: the origin is not allowed for this relying party."), "\(refused.html)")
            #expect(refused.html.contains(#"role="alert""#))
            #expect(refused.forms.contains { $0.button == "Create a passkey" })
            #expect(refused.forms.contains { $0.button == "Sign in with a password instead" })
        }
    }

    @Test(
        "a posted credential must be a JSON object of bounded size; anything else stays in the gateway",
        arguments: ["", "not json", "[1,2]", #""a string""#, "{\"x\":\"" + String(repeating: "a", count: PostedJSONObject.maximumBytes) + "\"}"]
    )
    func malformedCredentialStaysInTheGateway(credential: String) async throws {
        try await GatewayHarness.withGateway(configure: Self.configureLocalhost) { browser, _, _ in
            let registration = try await Self.passkeyStep(browser, user: "demo", password: "demo")
            let page = try await browser.submit(try registration.form(button: "Create a passkey"), ["credential": credential])
            #expect(page.html.contains("The passkey response could not be read. Please try again."), "\(page.html)")
            #expect(!page.html.contains("Form Errors"), "the upstream was not asked")
            #expect(page.forms.contains { $0.button == "Create a passkey" })
        }
    }

    @Test("when the relying-party id is not the gateway's host the page offers only the fallback, without script")
    func relyingPartyMismatchOffersOnlyTheFallback() async throws {
        for publicURL in [nil, URL(string: "https://login.example.com")] {
            try await GatewayHarness.withGateway(configure: { $0.server.publicBaseURL = publicURL }) { browser, _, _ in
                let registration = try await Self.passkeyStep(browser, user: "demo", password: "demo")
                #expect(registration.html.contains("they belong to another site than this one"), "\(registration.html)")
                #expect(!registration.html.contains("<script"))
                #expect(!registration.html.contains("data-options"))
                #expect(!registration.forms.contains { $0.button == "Create a passkey" })
                let fallback = try registration.form(button: "Sign in with a password instead")
                let passwordPage = try await browser.submit(fallback)
                #expect(passwordPage.forms.contains { $0.inputs.contains { $0.type == "password" } })
            }
        }
    }

    @Test("relying-party ids match the gateway's host or a parent domain of it, never an IP address")
    func relyingPartyMatching() {
        #expect(WebAuthnOperationContext.relyingPartyID("localhost", matches: "localhost"))
        #expect(WebAuthnOperationContext.relyingPartyID("example.com", matches: "login.example.com"))
        #expect(WebAuthnOperationContext.relyingPartyID("Example.COM", matches: "example.com"))
        #expect(!WebAuthnOperationContext.relyingPartyID("login.example.com", matches: "example.com"))
        #expect(!WebAuthnOperationContext.relyingPartyID("example.com", matches: "badexample.com"))
        #expect(!WebAuthnOperationContext.relyingPartyID("localhost", matches: nil))
        #expect(!WebAuthnOperationContext.relyingPartyID("127.0.0.1", matches: "127.0.0.1"))
        #expect(!WebAuthnOperationContext.relyingPartyID("::1", matches: "::1"))
    }
}
