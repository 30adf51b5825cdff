import Foundation
import Testing

/// Hostile or malformed HAAPI requests: documented problems or OAuth errors, never a 500.
@Suite struct HAAPIRequestTests {
    @Test func wrongAcceptIsRefused() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        _ = try await flow.start()
        for accept in ["text/html", "application/json", "application/vnd.auth+json;q=0"] {
            let response = try await flow.request("GET", "/authn/authenticate", accept: accept)
            #expect(response.status == 406, "\(accept)")
            #expect(response.contentType == "application/problem+json")
        }
        try await harness.finish()
    }

    @Test func missingAndForeignSessionIDAreProblems() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        _ = try await flow.start()
        let realSession = flow.sessionID
        flow.sessionID = nil
        let missing = try await flow.request("GET", "/authn/authenticate")
        #expect(missing.status == 400)
        #expect(missing.json["type"] as? String == "https://curity.se/problems/unexpected")
        #expect(missing.json["code"] as? String == "missing_session")
        flow.sessionID = "forged-session"
        let foreign = try await flow.request("GET", "/authn/authenticate")
        #expect(foreign.json["code"] as? String == "unknown_session")
        flow.sessionID = realSession
        #expect(try await flow.request("GET", "/authn/authenticate").status == 200)
        try await harness.finish()
    }

    @Test func flowBoundToAnotherDPoPKeyIsRefused() async throws {
        let harness = try await DemoServerHarness.start()
        let victim = HAAPIFlowDriver(harness: harness)
        _ = try await victim.start()
        let attacker = HAAPIFlowDriver(harness: harness)
        _ = try await attacker.start()
        attacker.sessionID = victim.sessionID
        let response = try await attacker.request("GET", "/authn/authenticate")
        #expect(response.status == 403)
        #expect(response.json["type"] as? String == "https://curity.se/problems/unexpected")
        #expect(response.json["code"] as? String == "authorization_failed")
        #expect(Step(response).messages.contains("A session can only be accessed using the original DPoP keys."))
        #expect(Step(response).link(rel: "restart") != nil)
        try await harness.finish()
    }

    @Test func tamperedHiddenFieldIsInvalidInput() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await LoginFlowTests.passwordForm(flow)
        let consent = Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": "consent", "password": "consent"]))
        let response = try await flow.submit(try #require(consent.action(kind: "user-consent")), ["state": "tampered"])
        #expect(response.status == 400)
        #expect(response.json["type"] as? String == "https://curity.se/problems/invalid-input")
        #expect((response.json["invalidFields"] as? [[String: Any]])?.first?["name"] as? String == "state")
        // The step stays valid after the problem.
        let done = try await flow.submit(try #require(consent.action(kind: "user-consent")))
        #expect(Step(done).type == "oauth-authorization-response")
        try await harness.finish()
    }

    @Test func consentCancelEndsWithAuthorizationProblem() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await LoginFlowTests.passwordForm(flow)
        let consent = Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": "consent", "password": "consent"]))
        let cancelled = try await flow.submit(try #require(consent.action(kind: "cancel")))
        #expect(cancelled.json["type"] as? String == "https://curity.se/problems/error-authorization-response")
        #expect(cancelled.json["error"] as? String == "access_denied")
        #expect(cancelled.json["error_description"] is String)
        #expect(cancelled.json["iss"] as? String == harness.issuer, "the issuer, as Curity's error-authorization-response carries it")
        try await harness.finish()
    }

    @Test func oversizedBodyIs413() async throws {
        let harness = try await DemoServerHarness.start(maximumBodyBytes: 2048)
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await LoginFlowTests.passwordForm(flow)
        let response = try await flow.submit(
            try #require(form.action(kind: "login")),
            ["userName": String(repeating: "a", count: 5000), "password": "x"]
        )
        #expect(response.status == 413)
        try await harness.finish()
    }

    @Test func expiredFlowIsAProblem() async throws {
        let harness = try await DemoServerHarness.start(flowLifetimeSeconds: 1)
        let flow = HAAPIFlowDriver(harness: harness)
        _ = try await flow.start()
        try await Task.sleep(for: .milliseconds(1300))
        let response = try await flow.request("GET", "/authn/authenticate")
        #expect(response.status == 400)
        #expect(response.json["code"] as? String == "session_expired")
        try await harness.finish()
    }

    @Test func fiveWrongPasswordsLockTheAccount() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await LoginFlowTests.passwordForm(flow)
        let login = try #require(form.action(kind: "login"))
        let missing = try await flow.submit(login, ["userName": "demo"])
        #expect(missing.json["type"] as? String == "https://curity.se/problems/invalid-input")
        for attempt in 1...4 {
            let wrong = try await flow.submit(login, ["userName": "demo", "password": "wrong\(attempt)"])
            #expect(wrong.status == 400)
            #expect(wrong.json["type"] as? String == "https://curity.se/problems/incorrect-credentials")
            #expect(Step(wrong).messages.isEmpty == false)
        }
        let locked = Step(try await flow.submit(login, ["userName": "demo", "password": "wrong5"]))
        #expect(locked.type == "authentication-step")
        #expect(locked.viewName == "authenticator/html-form/authenticate/locked")
        let stillLocked = Step(try await flow.submit(login, ["userName": "demo", "password": "demo"]))
        #expect(stillLocked.viewName == "authenticator/html-form/authenticate/locked")
        let cancelled = try await flow.submit(try #require(locked.action(kind: "cancel")))
        #expect(cancelled.json["type"] as? String == "https://curity.se/problems/error-authorization-response")
        try await harness.finish()
    }

    @Test func stepOutOfOrderIsUnexpected() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        _ = try await flow.start()
        let response = try await flow.request("POST", "/authn/authenticate/email/enter-otp", fields: [("otp", "123456")])
        #expect(response.json["code"] as? String == "unexpected_step")
        try await harness.finish()
    }

    @Test(arguments: [
        ("client_id", "someone-else", "unauthorized_client"), ("redirect_uri", "https://evil.example/cb", "invalid_request"),
        ("response_type", "token", "unsupported_response_type"), ("code_challenge_method", "plain", "invalid_request"),
        ("scope", "openid admin", "invalid_scope"), ("code_challenge", "short", "invalid_request"),
    ])
    func badAuthorizeParametersAreAuthorizationProblems(name: String, value: String, error: String) async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let base: [String: String] = [
            "client_id": "demo-gateway", "response_type": "code", "redirect_uri": "haapi:start", "scope": "openid",
            "code_challenge": TestJWS.sha256(flow.codeVerifier), "code_challenge_method": "S256",
        ]
        let issued = try await harness.haapiToken(key: flow.key)
        flow.token = issued.token
        var query = base
        query[name] = value
        let response = try await flow.request(
            "GET",
            harness.authorizeURL + "?" + TestHTTP.formEncode(query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        )
        #expect(response.status == 400)
        #expect(response.json["type"] as? String == "https://curity.se/problems/error-authorization-response")
        #expect(response.json["error"] as? String == error)
        #expect(response.json["iss"] as? String == harness.issuer)
        #expect(response.header("Session-Id") == nil && response.header("Set-Session-Id") == nil)
        try await harness.finish()
    }
}
