import Foundation
import HAAPIDemoServer
import Testing

/// Curity 11.4's DPoP binding settings as the demo answers them ([DPOP114], [DPOPEPH]): `authorization-code-dpop-binding`
/// (`dpop_jkt` on the authorize request binds the code, RFC 9449 §10) and `token-dpop-binding` (a sign-in's token request
/// needs a proof).
@Suite struct DPoPBindingTests {
    @Test func aRequiredBindingRefusesAnAuthorizeRequestWithoutDPoPJKT() async throws {
        let harness = try await DemoServerHarness.start { $0.authorizationCodeDPoPBinding = .required }
        let flow = HAAPIFlowDriver(harness: harness)
        flow.sendsDPoPJKT = false
        let refused = try await flow.start()
        #expect(refused.status == 400)
        #expect(refused.json["type"] as? String == "https://curity.se/problems/error-authorization-response")
        #expect(refused.json["error"] as? String == "invalid_request")
        #expect((refused.json["error_description"] as? String)?.contains("dpop_jkt") == true)
        #expect(refused.header("Set-Session-Id") == nil)

        let again = HAAPIFlowDriver(harness: harness)
        again.sendsDPoPJKT = true
        let accepted = try await again.start()
        #expect(accepted.status == 200)
        #expect(accepted.json["type"] as? String == "redirection-step")
        try await harness.finish()
    }

    @Test(arguments: ["", "abc", String(repeating: "A", count: 44), String(repeating: "*", count: 43)])
    func aMalformedDPoPJKTIsAnInvalidRequest(value: String) async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        flow.sendsDPoPJKT = false
        let refused = try await flow.start(extraQuery: [("dpop_jkt", value)])
        #expect(refused.status == 400)
        #expect(refused.json["error"] as? String == "invalid_request")
        try await harness.finish()
    }

    /// With `client-requested` (the default), `dpop_jkt` binds the code: the exchange must be proved by that key.
    @Test func aCodeBoundByDPoPJKTNeedsAProofByThatKey() async throws {
        let harness = try await DemoServerHarness.start()
        let (flow, done) = try await TokenEndpointTests.authorizationResponse(harness, sendsDPoPJKT: true)
        let unproved = try await flow.exchange(done)
        #expect(unproved.status == 400)
        #expect(unproved.json["error"] as? String == "invalid_dpop_proof")
        let otherKey = try await flow.exchange(done, dpopKey: TestDPoPKey())
        #expect(otherKey.status == 400)
        #expect(otherKey.json["error"] as? String == "invalid_dpop_proof")
        let proved = try await flow.exchange(done, dpopKey: flow.key)
        #expect(proved.status == 200, "\(proved.text)")
        #expect(proved.json["token_type"] as? String == "DPoP")
        try await harness.finish()
    }

    /// Without `dpop_jkt` and with `client-requested` tokens, nothing is bound: the demo's behaviour before 11.4's settings.
    @Test func withoutDPoPJKTAndClientRequestedTokensTheExchangeNeedsNoProof() async throws {
        let harness = try await DemoServerHarness.start()
        let (flow, done) = try await TokenEndpointTests.authorizationResponse(harness, sendsDPoPJKT: false)
        let tokens = try await flow.exchange(done)
        #expect(tokens.status == 200, "\(tokens.text)")
        #expect(tokens.json["token_type"] as? String == "Bearer")
        try await harness.finish()
    }

    /// `token-dpop-binding` required: the code exchange and the refresh are refused without a proof, and succeed with one.
    @Test func aRequiredTokenBindingRefusesExchangesAndRefreshesWithoutAProof() async throws {
        let harness = try await DemoServerHarness.start { $0.tokenDPoPBinding = .required }
        let (flow, done) = try await TokenEndpointTests.authorizationResponse(harness, sendsDPoPJKT: false)
        let unproved = try await flow.exchange(done)
        #expect(unproved.status == 400)
        #expect(unproved.json["error"] as? String == "invalid_dpop_proof")
        let proved = try await flow.exchange(done, dpopKey: flow.key)
        #expect(proved.status == 200, "\(proved.text)")
        #expect(proved.json["token_type"] as? String == "DPoP")
        let refreshToken = try #require(proved.json["refresh_token"] as? String)
        let refresh = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        let unprovedRefresh = try await harness.tokenRequest(refresh, authorization: harness.basicAuthorization)
        #expect(unprovedRefresh.status == 400)
        #expect(unprovedRefresh.json["error"] as? String == "invalid_dpop_proof")
        #expect((unprovedRefresh.json["error_description"] as? String)?.contains("the client's tokens are bound") == true)
        try await harness.finish()
    }
}
