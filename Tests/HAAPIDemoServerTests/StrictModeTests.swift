import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `DemoServerConfiguration.strict`: per-key DPoP nonces, token-bound authorization codes and a stickiness cookie.
@Suite struct StrictModeTests {
    static let haapiFields = [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")]

    @Test func strictTurnsOnEveryCheckAndDefaultsStayOff() {
        let plain = DemoServerConfiguration()
        #expect(!plain.requireDPoPNonce && !plain.noncesPerKey && !plain.issueTokenBoundAuthorizationCodes && !plain.requiresStickinessCookie)
        #expect(!plain.isStrict)
        let strict = DemoServerConfiguration.strict
        #expect(strict.requireDPoPNonce && strict.noncesPerKey && strict.issueTokenBoundAuthorizationCodes && strict.requiresStickinessCookie)
        #expect(strict.authorizationCodeDPoPBinding == .required && strict.tokenDPoPBinding == .required)
        #expect(plain.authorizationCodeDPoPBinding == .clientRequested && plain.tokenDPoPBinding == .clientRequested)
        #expect(strict.isStrict)
        var custom = DemoServerConfiguration(host: "127.0.0.2", port: 9, flowLifetimeSeconds: 5)
        custom.makeStrict()
        #expect(custom.isStrict && custom.host == "127.0.0.2" && custom.port == 9 && custom.flowLifetimeSeconds == 5)
    }

    /// The nonce the server hands `key` at the token endpoint (its first, nonce-less proof is refused).
    static func nonce(of key: TestDPoPKey, _ harness: DemoServerHarness) async throws -> String {
        let first = try await harness.tokenRequest(
            haapiFields,
            dpop: key.proof(method: "POST", url: harness.tokenURL),
            authorization: harness.basicAuthorization
        )
        #expect(first.status == 400)
        #expect(first.json["error"] as? String == "use_dpop_nonce")
        return try #require(first.header("DPoP-Nonce"))
    }

    @Test func tokenEndpointRefusesAnotherKeysNonce() async throws {
        let harness = try await DemoServerHarness.start(strict: true)
        let keyA = TestDPoPKey(), keyB = TestDPoPKey()
        let nonceA = try await Self.nonce(of: keyA, harness)
        let nonceB = try await Self.nonce(of: keyB, harness)
        #expect(nonceA != nonceB, "each key has its own nonce")
        let crossed = try await harness.tokenRequest(
            Self.haapiFields,
            dpop: keyA.proof(method: "POST", url: harness.tokenURL, nonce: nonceB),
            authorization: harness.basicAuthorization
        )
        #expect(crossed.status == 400)
        #expect(crossed.json["error"] as? String == "use_dpop_nonce")
        #expect(crossed.header("DPoP-Nonce") == nonceA, "the answer names the proof key's own nonce")
        let own = try await harness.tokenRequest(
            Self.haapiFields,
            dpop: keyA.proof(method: "POST", url: harness.tokenURL, nonce: nonceA),
            authorization: harness.basicAuthorization
        )
        #expect(own.status == 200)
        #expect(own.header("DPoP-Nonce") == nonceA)
        try await harness.finish()
    }

    @Test func haapiCallRefusesAnotherKeysNonceWith401() async throws {
        let harness = try await DemoServerHarness.start(strict: true)
        let flow = HAAPIFlowDriver(harness: harness)
        #expect(try await flow.start().status == 200)
        let ownNonce = try #require(flow.nonce)
        let otherNonce = try await Self.nonce(of: TestDPoPKey(), harness)
        let url = harness.base + "/authn/authenticate"
        var headers = [
            ("Accept", "application/vnd.auth+json"), ("Authorization", "DPoP \(flow.token)"), ("Session-Id", flow.sessionID ?? ""),
            ("DPoP", flow.key.proof(method: "GET", url: url, accessToken: flow.token, nonce: otherNonce)),
        ]
        if let cookie = flow.cookies.header(for: url) { headers.append(("Cookie", cookie)) }
        let crossed = try await harness.http.send(.GET, url, headers: headers)
        #expect(crossed.status == 401)
        #expect(crossed.header("WWW-Authenticate")?.hasPrefix(#"DPoP error="use_dpop_nonce""#) == true)
        #expect(crossed.header("DPoP-Nonce") == ownNonce)
        #expect(try await flow.request("GET", url).status == 200)
        try await harness.finish()
    }

    @Test func perKeyNoncesAreBoundedByTheFlowCapacity() async throws {
        let harness = try await DemoServerHarness.start(strict: true) { $0.maximumFlows = 2 }
        let first = TestDPoPKey()
        let firstNonce = try await Self.nonce(of: first, harness)
        for _ in 0..<2 { _ = try await Self.nonce(of: TestDPoPKey(), harness) }
        // Beyond two keys the oldest nonce was dropped: its key is asked for a new one.
        let evicted = try await harness.tokenRequest(
            Self.haapiFields,
            dpop: first.proof(method: "POST", url: harness.tokenURL, nonce: firstNonce),
            authorization: harness.basicAuthorization
        )
        #expect(evicted.json["error"] as? String == "use_dpop_nonce")
        #expect(evicted.header("DPoP-Nonce") != firstNonce)
        try await harness.finish()
    }

    @Test func tokenBoundCodeNeedsAProofFromTheFlowsKeyAndARefusalLeavesItUnused() async throws {
        let harness = try await DemoServerHarness.start(strict: true)
        let (flow, done) = try await TokenEndpointTests.authorizationResponse(harness)
        let withoutProof = try await flow.exchange(done)
        #expect(withoutProof.status == 400)
        #expect(withoutProof.json["error"] as? String == "invalid_dpop_proof")
        #expect((withoutProof.json["error_description"] as? String)?.isEmpty == false)
        let otherKey = try await flow.exchange(done, dpopKey: TestDPoPKey())
        #expect(otherKey.status == 400)
        #expect(otherKey.json["error"] as? String == "invalid_dpop_proof")

        // The demo's choice: refused attempts did not consume the code.
        let tokens = try await flow.exchange(done, dpopKey: flow.key)
        #expect(tokens.status == 200, "\(tokens.text)")
        #expect(tokens.json["token_type"] as? String == "DPoP")
        let accessToken = try #require(tokens.json["access_token"] as? String)
        let introspection = try await harness.http.send(
            .POST,
            harness.base + "/oauth/v2/oauth-introspect",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", harness.basicAuthorization)],
            body: TestHTTP.formEncode([("token", accessToken)])
        )
        #expect((introspection.json["cnf"] as? [String: Any])?["jkt"] as? String == flow.key.thumbprint)

        // Refreshing the bound tokens needs a proof from the same key.
        let refreshToken = try #require(tokens.json["refresh_token"] as? String)
        let refreshFields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        let unproven = try await harness.tokenRequest(refreshFields, authorization: harness.basicAuthorization)
        #expect(unproven.json["error"] as? String == "invalid_dpop_proof")
        let stranger = TestDPoPKey()
        let strangerNonce = try await Self.nonce(of: stranger, harness)
        let foreign = try await harness.tokenRequest(
            refreshFields,
            dpop: stranger.proof(method: "POST", url: harness.tokenURL, nonce: strangerNonce),
            authorization: harness.basicAuthorization
        )
        #expect(foreign.json["error"] as? String == "invalid_dpop_proof")
        let refreshed = try await harness.tokenRequest(
            refreshFields,
            dpop: flow.key.proof(method: "POST", url: harness.tokenURL, nonce: flow.nonce),
            authorization: harness.basicAuthorization
        )
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(refreshed.json["token_type"] as? String == "DPoP")
        // The successful exchange did consume the code.
        #expect(try await flow.exchange(done, dpopKey: flow.key).json["error"] as? String == "invalid_grant")
        try await harness.finish()
    }

    /// `consumesCodesOnRefusedProof`: a server that uses a code up when it refuses its exchange for a missing proof (Curity
    /// does not document whether it does): the retry with the right proof is a second use.
    @Test func aServerThatConsumesCodesOnARefusedProofAnswersTheProvedRetryInvalidGrant() async throws {
        let harness = try await DemoServerHarness.start(strict: true) { $0.consumesCodesOnRefusedProof = true }
        let (flow, done) = try await TokenEndpointTests.authorizationResponse(harness)
        let withoutProof = try await flow.exchange(done)
        #expect(withoutProof.json["error"] as? String == "invalid_dpop_proof")
        let retried = try await flow.exchange(done, dpopKey: flow.key)
        #expect(retried.status == 400)
        #expect(retried.json["error"] as? String == "invalid_grant", "\(retried.text)")
        // A flow proved at once is exchanged as before.
        let (next, nextDone) = try await TokenEndpointTests.authorizationResponse(harness)
        let tokens = try await next.exchange(nextDone, dpopKey: next.key)
        #expect(tokens.status == 200, "\(tokens.text)")
        #expect(tokens.json["token_type"] as? String == "DPoP")
        try await harness.finish()
    }

    @Test func codesAreNotTokenBoundUnlessConfigured() async throws {
        let harness = try await DemoServerHarness.start { $0.bindOnlyWhenRequested() }
        let (flow, done) = try await TokenEndpointTests.authorizationResponse(harness)
        let tokens = try await flow.exchange(done)
        #expect(tokens.status == 200)
        #expect(tokens.json["token_type"] as? String == "Bearer")
        try await harness.finish()
    }

    @Test func authorizeSetsTheStickinessCookieAndAnUnrelatedPathCookie() async throws {
        let harness = try await DemoServerHarness.start(strict: true)
        let flow = HAAPIFlowDriver(harness: harness)
        let authorize = try await flow.start()
        let setCookies = authorize.headers.filter { $0.0.lowercased() == "set-cookie" }.map(\.1)
        let node = try #require(setCookies.first { $0.hasPrefix("demo-node=") })
        #expect(node.contains("; Path=/;") && node.hasSuffix("HttpOnly"))
        let unused = try #require(setCookies.first { $0.hasPrefix("demo-unused=") })
        #expect(unused.contains("Path=/demo-unused"))
        let plain = try await DemoServerHarness.start()
        let plainFlow = HAAPIFlowDriver(harness: plain)
        #expect(try await plainFlow.start().header("Set-Cookie") == nil, "no cookie unless configured")
        try await plain.finish()
        try await harness.finish()
    }

    @Test func everyLaterRequestMustCarryTheFlowsCookie() async throws {
        let harness = try await DemoServerHarness.start(strict: true)
        let flow = HAAPIFlowDriver(harness: harness)
        let authorize = try await flow.start()
        let node = try #require(flow.cookies.value(of: "demo-node"))
        let url = harness.base + "/authn/authenticate"

        flow.sendsCookies = false
        let missing = try await flow.request("GET", url)
        #expect(missing.status == 400)
        #expect(missing.json["type"] as? String == "https://curity.se/problems/unexpected")
        #expect(missing.json["code"] as? String == "missing_stickiness_cookie")
        #expect(Step(missing).messages.contains { $0.contains("demo-node") })
        let wrong = try await flow.request("GET", url, headers: [("Cookie", "demo-node=someone-elses")])
        #expect(wrong.json["code"] as? String == "wrong_stickiness_cookie")
        let twice = try await flow.request("GET", url, headers: [("Cookie", "demo-node=x; demo-node=\(node)")])
        #expect(twice.json["code"] as? String == "wrong_stickiness_cookie")
        let outsidePath = try await flow.request("GET", url, headers: [("Cookie", "demo-node=\(node); demo-unused=1")])
        #expect(outsidePath.json["code"] as? String == "cookie_outside_its_path")
        let amongOthers = try await flow.request("GET", url, headers: [("Cookie", "theme=dark; demo-node=\(node)"), ("Cookie", "lang=sv")])
        #expect(amongOthers.status == 200, "\(amongOthers.text)")

        flow.sendsCookies = true
        #expect(Step(try await flow.follow(authorize)).type == "authentication-step")
        try await harness.finish()
    }

    @Test func aWholeStrictLoginReachesDPoPBoundTokens() async throws {
        let harness = try await DemoServerHarness.start(strict: true)
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await LoginFlowTests.passwordForm(flow, authenticator: "html-form")
        let login = try #require(form.action(kind: "login"))
        let send = try #require(Step(try await flow.submit(login, ["userName": "sms", "password": "sms"])).actions.first)
        let continueAction = try #require(((send["model"] as? [String: Any])?["continueActions"] as? [[String: Any]])?.first)
        #expect(Step(try await flow.submit(send)).type == "continue-same-step")
        let code = try #require(try await SMSCodeFlowTests.smsCode(harness))
        let done = try await flow.submit(continueAction, ["otp": code])
        #expect(Step(done).type == "oauth-authorization-response")
        let tokens = try await flow.exchange(done, dpopKey: flow.key)
        #expect(tokens.status == 200)
        #expect(tokens.json["token_type"] as? String == "DPoP")
        try await harness.finish()
    }
}
