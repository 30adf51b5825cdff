import Foundation
import Testing

@testable import GatewayTestSupport

/// The passkey option spoken from scratch with a software authenticator: registration after the password, then
/// authentication, then the passkey alone; every refused response is an `invalid-input` problem on `credential`, and
/// every body is checked against the schema.
@Suite struct PasskeyFlowTests {
    static let origin = "http://localhost:8080"

    /// The passkey option's username form.
    static func passkeyForm(_ flow: HAAPIFlowDriver) async throws -> Step {
        let selector = try await LoginFlowTests.selector(flow)
        let form = Step(try await flow.submit(try #require(selector.option("webauthn"))))
        #expect(form.type == "authentication-step")
        #expect(form.viewName == "authenticator/webauthn/authenticate-device/username")
        return form
    }

    /// The client operation's model of a WebAuthn step.
    static func operation(_ step: Step) throws -> [String: Any] {
        let action = try #require(step.actions.first)
        #expect(action["template"] as? String == "client-operation")
        return try #require(action["model"] as? [String: Any])
    }

    static func publicKey(_ step: Step, _ member: String) throws -> [String: Any] {
        let arguments = try #require(try operation(step)["arguments"] as? [String: Any])
        return try #require((arguments[member] as? [String: Any])?["publicKey"] as? [String: Any])
    }

    static func continueAction(_ step: Step) throws -> [String: Any] {
        try #require((try operation(step)["continueActions"] as? [[String: Any]])?.first)
    }

    /// From the selector to the registration step of `demo`.
    static func registrationStep(_ flow: HAAPIFlowDriver, user: String = "demo") async throws -> Step {
        let form = try await passkeyForm(flow)
        let step = Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": user, "password": user]))
        #expect(step.type == "registration-step")
        #expect(try operation(step)["name"] as? String == "webauthn-registration")
        return step
    }

    /// Registers `authenticator` and returns the authentication step that follows.
    static func register(_ authenticator: SoftwareAuthenticator, _ flow: HAAPIFlowDriver, user: String = "demo") async throws -> Step {
        let registration = try await registrationStep(flow, user: user)
        let options = try publicKey(registration, "credentialCreationOptions")
        let response = try await flow.submitJSON(
            try continueAction(registration),
            ["credential": authenticator.registration(SoftwareAuthenticator.creation(options, origin: origin))]
        )
        let step = Step(response)
        #expect(step.type == "authentication-step", "\(response.text)")
        #expect(try operation(step)["name"] as? String == "webauthn-authentication")
        return step
    }

    static func userHandle(_ flow: HAAPIFlowDriver, registration: Step) throws -> String {
        let user = try #require(try publicKey(registration, "credentialCreationOptions")["user"] as? [String: Any])
        return try #require(user["id"] as? String)
    }

    static func expectRefused(_ response: TestResponse, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 400, sourceLocation: sourceLocation)
        #expect(response.json["type"] as? String == "https://curity.se/problems/invalid-input", "\(response.text)", sourceLocation: sourceLocation)
        let field = (response.json["invalidFields"] as? [[String: Any]])?.first
        #expect(field?["name"] as? String == "credential", sourceLocation: sourceLocation)
        #expect((field?["detail"] as? String)?.contains(detail) == true, "\(response.text)", sourceLocation: sourceLocation)
    }

    @Test func registrationThenAuthenticationThenThePasskeyAloneSignsIn() async throws {
        let harness = try await DemoServerHarness.start()
        var authenticator = SoftwareAuthenticator()

        let flow = HAAPIFlowDriver(harness: harness)
        let registration = try await Self.registrationStep(flow)
        let creation = try Self.publicKey(registration, "credentialCreationOptions")
        #expect((creation["rp"] as? [String: Any])?["id"] as? String == "localhost")
        #expect((creation["user"] as? [String: Any])?["name"] as? String == "demo")
        #expect((creation["challenge"] as? String).flatMap { Data(base64URL: $0) }?.count == 32)
        #expect((creation["pubKeyCredParams"] as? [[String: Any]])?.first?["alg"] as? Int == -7)
        #expect(creation["attestation"] as? String == "none")
        #expect((creation["authenticatorSelection"] as? [String: Any])?["residentKey"] as? String == "preferred")
        let continueModel = try #require(try Self.continueAction(registration)["model"] as? [String: Any])
        #expect((continueModel["fields"] as? [[String: Any]])?.first?["type"] as? String == "context")
        let userHandle = try Self.userHandle(flow, registration: registration)

        let response = try await flow.submitJSON(
            try Self.continueAction(registration),
            ["credential": authenticator.registration(SoftwareAuthenticator.creation(creation, origin: Self.origin))]
        )
        let authentication = Step(response)
        #expect(authentication.type == "authentication-step", "\(response.text)")
        let request = try Self.publicKey(authentication, "credentialRequestOptions")
        #expect(request["rpId"] as? String == "localhost")
        #expect((request["allowCredentials"] as? [[String: Any]])?.map { $0["id"] as? String } == [authenticator.credentialIDText])
        #expect(request["challenge"] as? String != creation["challenge"] as? String)

        let done = try await flow.submitJSON(
            try Self.continueAction(authentication),
            ["credential": authenticator.assertion(SoftwareAuthenticator.request(request, origin: Self.origin), userHandle: userHandle)]
        )
        #expect(Step(done).type == "oauth-authorization-response", "\(done.text)")
        let tokens = try await flow.exchange(done)
        #expect(tokens.status == 200, "\(tokens.text)")

        // A second sign-in: the username alone leads to the passkey.
        let again = HAAPIFlowDriver(harness: harness)
        let form = try await Self.passkeyForm(again)
        let second = Step(try await again.submit(try #require(form.action(kind: "login")), ["userName": "demo"]))
        #expect(second.type == "authentication-step")
        let secondRequest = try Self.publicKey(second, "credentialRequestOptions")
        let finished = try await again.submitJSON(
            try Self.continueAction(second),
            ["credential": authenticator.assertion(SoftwareAuthenticator.request(secondRequest, origin: Self.origin), userHandle: nil)]
        )
        #expect(Step(finished).type == "oauth-authorization-response", "\(finished.text)")
        #expect(try await again.exchange(finished).status == 200)
        try await harness.finish()
    }

    @Test func registrationResponsesThatFailACheckAreRefusedAndAnHonestOneStillWorks() async throws {
        let harness = try await DemoServerHarness.start()
        let authenticator = SoftwareAuthenticator()
        let flow = HAAPIFlowDriver(harness: harness)
        let registration = try await Self.registrationStep(flow)
        let honest = SoftwareAuthenticator.creation(try Self.publicKey(registration, "credentialCreationOptions"), origin: Self.origin)
        let action = try Self.continueAction(registration)

        var wrongChallenge = honest
        wrongChallenge.challenge = SoftwareAuthenticator.base64url([UInt8](repeating: 7, count: 32))
        Self.expectRefused(try await flow.submitJSON(action, ["credential": authenticator.registration(wrongChallenge)]), "challenge")
        var wrongOrigin = honest
        wrongOrigin.origin = "https://evil.example"
        Self.expectRefused(try await flow.submitJSON(action, ["credential": authenticator.registration(wrongOrigin)]), "origin")
        var wrongType = honest
        wrongType.type = "webauthn.get"
        Self.expectRefused(try await flow.submitJSON(action, ["credential": authenticator.registration(wrongType)]), "type")
        var wrongRelyingParty = honest
        wrongRelyingParty.relyingPartyID = "example.com"
        Self.expectRefused(try await flow.submitJSON(action, ["credential": authenticator.registration(wrongRelyingParty)]), "relying party")
        let garbage: [UInt8] = [0xa3, 0x63, 0x66, 0x6d, 0x74]
        Self.expectRefused(
            try await flow.submitJSON(action, ["credential": authenticator.registration(honest, attestationObject: garbage)]),
            "CBOR"
        )
        let trailing = CBORWriter.encode(.map([(.text("fmt"), .text("none"))])) + [0x00]
        Self.expectRefused(
            try await flow.submitJSON(action, ["credential": authenticator.registration(honest, attestationObject: trailing)]),
            "CBOR"
        )
        Self.expectRefused(
            try await flow.submitJSON(action, ["credential": SoftwareAuthenticator.json(authenticator.registration(honest))]),
            "JSON object"
        )

        let accepted = try await flow.submitJSON(action, ["credential": authenticator.registration(honest)])
        #expect(Step(accepted).type == "authentication-step", "\(accepted.text)")
        try await harness.finish()
    }

    @Test func assertionsThatFailACheckAreRefusedReplaysIncluded() async throws {
        let harness = try await DemoServerHarness.start()
        var authenticator = SoftwareAuthenticator()
        let flow = HAAPIFlowDriver(harness: harness)
        let registration = try await Self.registrationStep(flow)
        let userHandle = try Self.userHandle(flow, registration: registration)
        let creation = SoftwareAuthenticator.creation(try Self.publicKey(registration, "credentialCreationOptions"), origin: Self.origin)
        let registrationResponse = authenticator.registration(creation)
        let authentication = Step(try await flow.submitJSON(try Self.continueAction(registration), ["credential": registrationResponse]))
        let honest = SoftwareAuthenticator.request(try Self.publicKey(authentication, "credentialRequestOptions"), origin: Self.origin)
        let action = try Self.continueAction(authentication)

        // The registration response again, now at the authentication step: it answered another ceremony.
        Self.expectRefused(try await flow.submitJSON(action, ["credential": registrationResponse]), "type")
        Self.expectRefused(
            try await flow.submitJSON(action, ["credential": authenticator.assertion(honest, userHandle: userHandle, corruptSignature: true)]),
            "signature"
        )
        var stranger = SoftwareAuthenticator()
        Self.expectRefused(try await flow.submitJSON(action, ["credential": stranger.assertion(honest, userHandle: userHandle)]), "not registered")
        var wrongType = honest
        wrongType.type = "webauthn.create"
        Self.expectRefused(try await flow.submitJSON(action, ["credential": authenticator.assertion(wrongType, userHandle: userHandle)]), "type")
        var wrongRelyingParty = honest
        wrongRelyingParty.relyingPartyID = "localhost.example"
        Self.expectRefused(
            try await flow.submitJSON(action, ["credential": authenticator.assertion(wrongRelyingParty, userHandle: userHandle)]),
            "relying party"
        )
        Self.expectRefused(
            try await flow.submitJSON(
                action,
                ["credential": authenticator.assertion(honest, userHandle: SoftwareAuthenticator.base64url([1, 2, 3]))]
            ),
            "user handle"
        )

        let signedIn = authenticator.assertion(honest, userHandle: userHandle)
        #expect(Step(try await flow.submitJSON(action, ["credential": signedIn])).type == "oauth-authorization-response")

        // The same assertion in a new flow: its challenge belongs to the old one.
        let again = HAAPIFlowDriver(harness: harness)
        let form = try await Self.passkeyForm(again)
        let second = Step(try await again.submit(try #require(form.action(kind: "login")), ["userName": "demo"]))
        Self.expectRefused(try await again.submitJSON(try Self.continueAction(second), ["credential": signedIn]), "challenge")
        // A counter that does not increase (a cloned authenticator) is refused too.
        var clone = authenticator
        clone.signCount = 0
        let cloneRequest = SoftwareAuthenticator.request(try Self.publicKey(second, "credentialRequestOptions"), origin: Self.origin)
        let staleAssertion = clone.assertion(cloneRequest, userHandle: userHandle)
        Self.expectRefused(try await again.submitJSON(try Self.continueAction(second), ["credential": staleAssertion]), "counter")
        try await harness.finish()
    }

    @Test func tooManyRefusedResponsesEndTheFlow() async throws {
        let harness = try await DemoServerHarness.start()
        let authenticator = SoftwareAuthenticator()
        let flow = HAAPIFlowDriver(harness: harness)
        let registration = try await Self.registrationStep(flow)
        var foreign = SoftwareAuthenticator.creation(try Self.publicKey(registration, "credentialCreationOptions"), origin: Self.origin)
        foreign.origin = "https://evil.example"
        let action = try Self.continueAction(registration)
        for _ in 1..<10 { Self.expectRefused(try await flow.submitJSON(action, ["credential": authenticator.registration(foreign)]), "origin") }
        let last = try await flow.submitJSON(action, ["credential": authenticator.registration(foreign)])
        #expect(last.json["type"] as? String == "https://curity.se/problems/error-authorization-response")
        #expect(last.json["error"] as? String == "access_denied")
        try await harness.finish()
    }

    @Test func theFirstPasskeyNeedsThePasswordAndTheErrorActionIsThePasswordLogin() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await Self.passkeyForm(flow)
        let login = try #require(form.action(kind: "login"))
        let withoutPassword = try await flow.submit(login, ["userName": "demo"])
        #expect(withoutPassword.json["type"] as? String == "https://curity.se/problems/invalid-input")
        #expect((withoutPassword.json["invalidFields"] as? [[String: Any]])?.first?["name"] as? String == "password")
        let wrongPassword = try await flow.submit(login, ["userName": "demo", "password": "nope"])
        #expect(wrongPassword.json["type"] as? String == "https://curity.se/problems/incorrect-credentials")

        let registration = Step(try await flow.submit(login, ["userName": "demo", "password": "demo"]))
        let fallback = try #require((try Self.operation(registration)["errorActions"] as? [[String: Any]])?.first)
        #expect(fallback["title"] as? String == "Sign in with a password instead")
        let passwordForm = Step(try await flow.submit(fallback))
        #expect(passwordForm.viewName == "authenticator/html-form/authenticate/get")
        try await harness.finish()
    }
}

extension Data {
    /// Decodes unpadded base64url.
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
