import Foundation
import Testing

@Suite struct TokenEndpointTests {
    /// A finished demo login; returns the flow and its oauth-authorization-response.
    /// A flow from the authorize request to its `oauth-authorization-response`, as demo/demo; `sendsDPoPJKT` overrides
    /// whether the authorize request carries `dpop_jkt` (by default: when the server requires it).
    static func authorizationResponse(_ harness: DemoServerHarness, sendsDPoPJKT: Bool? = nil) async throws -> (HAAPIFlowDriver, TestResponse) {
        let flow = HAAPIFlowDriver(harness: harness)
        flow.sendsDPoPJKT = sendsDPoPJKT
        let form = try await LoginFlowTests.passwordForm(flow)
        let redirect = try await flow.submit(try #require(form.action(kind: "login")), ["userName": "demo", "password": "demo"])
        let notice = Step(try await flow.follow(redirect))
        let done = try await flow.submit(try #require(notice.action(kind: "continue")))
        #expect(Step(done).type == "oauth-authorization-response")
        return (flow, done)
    }

    static let haapiFields = [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")]

    @Test func wrongClientSecretIsInvalidClient() async throws {
        let harness = try await DemoServerHarness.start()
        let key = TestDPoPKey()
        let basic = "Basic " + Data("demo-gateway:wrong".utf8).base64EncodedString()
        let response = try await harness.tokenRequest(Self.haapiFields, dpop: key.proof(method: "POST", url: harness.tokenURL), authorization: basic)
        #expect(response.status == 401)
        #expect(response.json["error"] as? String == "invalid_client")
        #expect(response.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
        let post = try await harness.tokenRequest(
            Self.haapiFields + [("client_id", "demo-gateway"), ("client_secret", "nope")],
            dpop: key.proof(method: "POST", url: harness.tokenURL)
        )
        #expect(post.status == 401)
        #expect(post.json["error"] as? String == "invalid_client")
        let none = try await harness.tokenRequest(Self.haapiFields, dpop: key.proof(method: "POST", url: harness.tokenURL))
        #expect(none.json["error"] as? String == "invalid_client")
        let both = try await harness.tokenRequest(
            Self.haapiFields + [("client_id", "demo-gateway"), ("client_secret", "demo-secret")],
            dpop: key.proof(method: "POST", url: harness.tokenURL),
            authorization: harness.basicAuthorization
        )
        #expect(both.json["error"] as? String == "invalid_request")
        let goodPost = try await harness.tokenRequest(
            Self.haapiFields + [("client_id", "demo-gateway"), ("client_secret", "demo-secret")],
            dpop: key.proof(method: "POST", url: harness.tokenURL)
        )
        #expect(goodPost.status == 200)
        try await harness.finish()
    }

    @Test func privateKeyJWTWorksOnceAndChecksAudience() async throws {
        let harness = try await DemoServerHarness.start()
        let key = TestDPoPKey()
        let assertion = try harness.clientAssertion()
        let fields =
            Self.haapiFields + [
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"), ("client_assertion", assertion),
            ]
        let first = try await harness.tokenRequest(fields, dpop: key.proof(method: "POST", url: harness.tokenURL))
        #expect(first.status == 200, "\(first.text)")
        let replay = try await harness.tokenRequest(fields, dpop: key.proof(method: "POST", url: harness.tokenURL))
        #expect(replay.status == 401)
        #expect(replay.json["error"] as? String == "invalid_client")
        for bad in [try harness.clientAssertion(audience: "https://elsewhere.example"), try harness.clientAssertion(expiresIn: -120)] {
            let response = try await harness.tokenRequest(
                Self.haapiFields + [("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"), ("client_assertion", bad)],
                dpop: key.proof(method: "POST", url: harness.tokenURL)
            )
            #expect(response.json["error"] as? String == "invalid_client")
        }
        try await harness.finish()
    }

    @Test func codeIsSingleUseAndChecksVerifierAndRedirectURI() async throws {
        let harness = try await DemoServerHarness.start()
        let (flow, done) = try await Self.authorizationResponse(harness)
        let wrongRedirect = try await flow.exchange(done, redirectURI: "haapi:other")
        #expect(wrongRedirect.json["error"] as? String == "invalid_grant")
        // The code was consumed by the failed attempt as well: single use, always.
        let reuse = try await flow.exchange(done)
        #expect(reuse.status == 400)
        #expect(reuse.json["error"] as? String == "invalid_grant")

        let (secondFlow, secondDone) = try await Self.authorizationResponse(harness)
        let wrongVerifier = try await secondFlow.exchange(secondDone, verifier: String(repeating: "a", count: 43))
        #expect(wrongVerifier.json["error"] as? String == "invalid_grant")

        let (thirdFlow, thirdDone) = try await Self.authorizationResponse(harness)
        let issued = try await thirdFlow.exchange(thirdDone)
        #expect(issued.status == 200)
        let again = try await thirdFlow.exchange(thirdDone)
        #expect(again.json["error"] as? String == "invalid_grant")
        // Reusing the code revoked the tokens issued for it.
        let introspection = try await harness.http.send(
            .POST,
            harness.base + "/oauth/v2/oauth-introspect",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", harness.basicAuthorization)],
            body: TestHTTP.formEncode([("token", issued.json["access_token"] as? String ?? "")])
        )
        #expect(introspection.json["active"] as? Bool == false)
        try await harness.finish()
    }

    @Test func dpopBoundTokensRefreshWithRotationAndRevocation() async throws {
        let harness = try await DemoServerHarness.start()
        let (flow, done) = try await Self.authorizationResponse(harness)
        let userKey = TestDPoPKey()
        let tokens = try await flow.exchange(done, dpopKey: userKey)
        #expect(tokens.json["token_type"] as? String == "DPoP")
        let accessToken = try #require(tokens.json["access_token"] as? String)
        let refreshToken = try #require(tokens.json["refresh_token"] as? String)

        let introspection = try await harness.http.send(
            .POST,
            harness.base + "/oauth/v2/oauth-introspect",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", harness.basicAuthorization)],
            body: TestHTTP.formEncode([("token", accessToken)])
        )
        #expect(introspection.json["active"] as? Bool == true)
        #expect((introspection.json["cnf"] as? [String: Any])?["jkt"] as? String == userKey.thumbprint)

        // The bound access token works at userinfo only with a matching proof.
        let userinfo = harness.base + "/oauth/v2/oauth-userinfo"
        let good = try await harness.http.send(
            .GET,
            userinfo,
            headers: [("Authorization", "DPoP \(accessToken)"), ("DPoP", userKey.proof(method: "GET", url: userinfo, accessToken: accessToken))]
        )
        #expect(good.status == 200)
        #expect(good.json["sub"] as? String == "demo")
        let asBearer = try await harness.http.send(.GET, userinfo, headers: [("Authorization", "Bearer \(accessToken)")])
        #expect(asBearer.status == 401)
        let foreignKey = try await harness.http.send(
            .GET,
            userinfo,
            headers: [
                ("Authorization", "DPoP \(accessToken)"), ("DPoP", TestDPoPKey().proof(method: "GET", url: userinfo, accessToken: accessToken)),
            ]
        )
        #expect(foreignKey.status == 401)
        #expect(foreignKey.header("WWW-Authenticate")?.contains("invalid_dpop_proof") == true)
        // A proof from another key cannot use the bound refresh token.
        let otherKey = try await harness.tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            dpop: TestDPoPKey().proof(method: "POST", url: harness.tokenURL),
            authorization: harness.basicAuthorization
        )
        #expect(otherKey.json["error"] as? String == "invalid_dpop_proof")

        let refreshed = try await harness.tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            dpop: userKey.proof(method: "POST", url: harness.tokenURL),
            authorization: harness.basicAuthorization
        )
        #expect(refreshed.status == 200, "\(refreshed.text)")
        let rotated = try #require(refreshed.json["refresh_token"] as? String)
        #expect(rotated != refreshToken)
        let old = try await harness.tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            dpop: userKey.proof(method: "POST", url: harness.tokenURL),
            authorization: harness.basicAuthorization
        )
        #expect(old.json["error"] as? String == "invalid_grant")
        // A confidential client reusing a rotated refresh token keeps its grant: Curity documents revocation on reuse
        // for public clients only (revoke-delegation-for-public-clients-reusing-refresh-token).
        let afterReuse = try await harness.tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", rotated)],
            dpop: userKey.proof(method: "POST", url: harness.tokenURL),
            authorization: harness.basicAuthorization
        )
        #expect(afterReuse.status == 200, "\(afterReuse.text)")

        try await harness.finish()
    }

    @Test("with revokesGrantOnRefreshTokenReuse (beyond Curity) a rotated refresh token used again revokes the whole grant")
    func refreshTokenReuseRevokesTheGrantWhenAskedTo() async throws {
        let harness = try await DemoServerHarness.start { $0.revokesGrantOnRefreshTokenReuse = true }
        let (flow, done) = try await Self.authorizationResponse(harness)
        let tokens = try await flow.exchange(done)
        let refreshToken = try #require(tokens.json["refresh_token"] as? String)
        let refreshed = try await harness.tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            authorization: harness.basicAuthorization
        )
        #expect(refreshed.status == 200, "\(refreshed.text)")
        let rotated = try #require(refreshed.json["refresh_token"] as? String)
        let old = try await harness.tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            authorization: harness.basicAuthorization
        )
        #expect(old.json["error"] as? String == "invalid_grant")
        let afterReuse = try await harness.tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", rotated)],
            authorization: harness.basicAuthorization
        )
        #expect(afterReuse.json["error"] as? String == "invalid_grant", "the newest refresh token is revoked with the grant")
        try await harness.finish()
    }

    @Test("with reusesRefreshTokens (Curity's reuse-refresh-tokens true) a refresh keeps the refresh token, and it works again")
    func reusedRefreshTokensStayValid() async throws {
        let harness = try await DemoServerHarness.start { $0.reusesRefreshTokens = true }
        let (flow, done) = try await Self.authorizationResponse(harness)
        let tokens = try await flow.exchange(done)
        let refreshToken = try #require(tokens.json["refresh_token"] as? String)
        var accessTokens: Set<String> = []
        for _ in 0..<2 {
            let refreshed = try await harness.tokenRequest(
                [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
                authorization: harness.basicAuthorization
            )
            #expect(refreshed.status == 200, "\(refreshed.text)")
            #expect(refreshed.json["refresh_token"] as? String == refreshToken, "the same refresh token, not a rotated one")
            accessTokens.insert(try #require(refreshed.json["access_token"] as? String))
        }
        #expect(accessTokens.count == 2, "each refresh issues a new access token")
        try await harness.finish()
    }

    @Test func revocationAnswers200AndRevokedRefreshTokenIsRefused() async throws {
        let harness = try await DemoServerHarness.start()
        let (flow, done) = try await Self.authorizationResponse(harness)
        let tokens = try await flow.exchange(done)
        let refreshToken = try #require(tokens.json["refresh_token"] as? String)
        func revoke(_ token: String) async throws -> TestResponse {
            try await harness.http.send(
                .POST,
                harness.base + "/oauth/v2/oauth-revoke",
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", harness.basicAuthorization)],
                body: TestHTTP.formEncode([("token", token), ("token_type_hint", "refresh_token")])
            )
        }
        #expect(try await revoke("unknown-token").status == 200)
        #expect(try await revoke(refreshToken).status == 200)
        let refused = try await harness.tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            authorization: harness.basicAuthorization
        )
        #expect(refused.json["error"] as? String == "invalid_grant")
        let unauthenticated = try await harness.http.send(
            .POST,
            harness.base + "/oauth/v2/oauth-revoke",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "token=\(refreshToken)"
        )
        #expect(unauthenticated.status == 401)
        try await harness.finish()
    }

    @Test func malformedTokenRequestsGetOAuthErrors() async throws {
        let harness = try await DemoServerHarness.start(maximumBodyBytes: 4096)
        let auth = harness.basicAuthorization
        #expect(
            try await harness.tokenRequest([("grant_type", "password")], authorization: auth).json["error"] as? String == "unsupported_grant_type"
        )
        #expect(try await harness.tokenRequest([("scope", "x")], authorization: auth).json["error"] as? String == "invalid_request")
        #expect(
            try await harness.tokenRequest([("grant_type", "client_credentials"), ("grant_type", "client_credentials")], authorization: auth)
                .json["error"] as? String == "invalid_request"
        )
        #expect(
            try await harness.tokenRequest([("grant_type", "client_credentials")], authorization: auth, contentType: "application/json")
                .json["error"] as? String == "invalid_request"
        )
        let other = try await harness.tokenRequest(
            [("grant_type", "client_credentials"), ("scope", "openid")],
            dpop: TestDPoPKey().proof(method: "POST", url: harness.tokenURL),
            authorization: auth
        )
        #expect(other.json["error"] as? String == "invalid_scope")
        let oversized = try await harness.tokenRequest([("grant_type", String(repeating: "x", count: 10_000))], authorization: auth)
        #expect(oversized.status == 413)
        let badCode = try await harness.tokenRequest(
            [
                ("grant_type", "authorization_code"), ("code", "nope"), ("redirect_uri", "haapi:start"),
                ("code_verifier", String(repeating: "b", count: 43)),
            ],
            authorization: auth
        )
        #expect(badCode.json["error"] as? String == "invalid_grant")
        let garbage = try await harness.http.send(
            .POST,
            harness.tokenURL,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", "Basic %%%")],
            body: "%zz=%"
        )
        #expect(garbage.status == 400 || garbage.status == 401)
        try await harness.finish()
    }
}
