import Foundation
import Testing

@Suite struct NonceModeTests {
    @Test func tokenEndpointAsksForNonceThenAccepts() async throws {
        let harness = try await DemoServerHarness.start(nonce: true)
        let key = TestDPoPKey()
        let fields = [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")]
        let first = try await harness.tokenRequest(
            fields,
            dpop: key.proof(method: "POST", url: harness.tokenURL),
            authorization: harness.basicAuthorization
        )
        #expect(first.status == 400)
        #expect(first.json["error"] as? String == "use_dpop_nonce")
        let nonce = try #require(first.header("DPoP-Nonce"))
        let stale = try await harness.tokenRequest(
            fields,
            dpop: key.proof(method: "POST", url: harness.tokenURL, nonce: "stale"),
            authorization: harness.basicAuthorization
        )
        #expect(stale.json["error"] as? String == "use_dpop_nonce")
        let second = try await harness.tokenRequest(
            fields,
            dpop: key.proof(method: "POST", url: harness.tokenURL, nonce: nonce),
            authorization: harness.basicAuthorization
        )
        #expect(second.status == 200)
        #expect(second.header("DPoP-Nonce") != nil)
        try await harness.finish()
    }

    @Test func haapiCallAnswersUseDPoPNonceWith401() async throws {
        let harness = try await DemoServerHarness.start(nonce: true)
        let key = TestDPoPKey()
        let (token, _) = try await harness.haapiToken(key: key)
        let response = try await harness.http.send(
            .GET,
            harness.authorizeURL,
            headers: [
                ("Accept", "application/vnd.auth+json"), ("Authorization", "DPoP \(token)"),
                ("DPoP", key.proof(method: "GET", url: harness.authorizeURL, accessToken: token)),
            ]
        )
        #expect(response.status == 401)
        #expect(response.header("WWW-Authenticate")?.hasPrefix(#"DPoP error="use_dpop_nonce""#) == true)
        #expect(response.header("DPoP-Nonce") != nil)
        try await harness.finish()
    }

    @Test func wholeFlowWorksInNonceMode() async throws {
        let harness = try await DemoServerHarness.start(nonce: true)
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await LoginFlowTests.passwordForm(flow)
        let redirect = try await flow.submit(try #require(form.action(kind: "login")), ["userName": "demo", "password": "demo"])
        #expect(redirect.header("DPoP-Nonce") != nil)
        let notice = Step(try await flow.follow(redirect))
        let done = try await flow.submit(try #require(notice.action(kind: "continue")))
        #expect(Step(done).type == "oauth-authorization-response")
        try await harness.finish()
    }

    @Test func nonceRotatesAndOldNoncesExpire() async throws {
        let harness = try await DemoServerHarness.start(nonce: true, nonceLifetimeSeconds: 3)
        let key = TestDPoPKey()
        let fields = [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")]
        let first = try await harness.tokenRequest(
            fields,
            dpop: key.proof(method: "POST", url: harness.tokenURL),
            authorization: harness.basicAuthorization
        )
        let oldNonce = try #require(first.header("DPoP-Nonce"))
        // A nonce stays valid for at most two periods (6 s); wait past that.
        try await Task.sleep(for: .milliseconds(6500))
        let stale = try await harness.tokenRequest(
            fields,
            dpop: key.proof(method: "POST", url: harness.tokenURL, nonce: oldNonce),
            authorization: harness.basicAuthorization
        )
        #expect(stale.json["error"] as? String == "use_dpop_nonce")
        let fresh = try #require(stale.header("DPoP-Nonce"))
        #expect(fresh != oldNonce)
        // A client retries with the newest nonce; on a stalled machine a rotation may fall between the attempts.
        let (token, _) = try await harness.haapiToken(key: key, attempts: 3)
        #expect(!token.isEmpty)
        try await harness.finish()
    }
}
