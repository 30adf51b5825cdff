import Foundation
import Testing

/// Each DPoP check of RFC 9449 §4.3, on a HAAPI call (401 + WWW-Authenticate) and on the token endpoint (400 JSON).
@Suite struct DPoPRejectionTests {
    enum Breakage: String, CaseIterable, Sendable {
        case missingProof, wrongHTM, wrongHTU, badATH, staleIAT, futureIAT, otherKeyThanCnfJkt, privateKeyInJWK, algNone, algHS256, wrongTyp,
            badSignature, twoProofs
    }

    @Test(arguments: Breakage.allCases)
    func haapiCallRefusesBrokenProof(_ breakage: Breakage) async throws {
        let harness = try await DemoServerHarness.start()
        let key = TestDPoPKey()
        let (token, _) = try await harness.haapiToken(key: key)
        let url = harness.authorizeURL
        let now = Int(Date().timeIntervalSince1970)
        var proofs: [String] = []
        switch breakage {
        case .missingProof: break
        case .wrongHTM: proofs = [key.proof(method: "POST", url: url, accessToken: token)]
        case .wrongHTU: proofs = [key.proof(method: "GET", url: harness.base + "/authn/authenticate", accessToken: token)]
        case .badATH: proofs = [key.proof(method: "GET", url: url, accessToken: token + "x")]
        case .staleIAT: proofs = [key.proof(method: "GET", url: url, accessToken: token, iat: now - 600)]
        case .futureIAT: proofs = [key.proof(method: "GET", url: url, accessToken: token, iat: now + 600)]
        case .otherKeyThanCnfJkt: proofs = [TestDPoPKey().proof(method: "GET", url: url, accessToken: token)]
        case .privateKeyInJWK: proofs = [key.proof(method: "GET", url: url, accessToken: token, tamper: .includePrivateKey)]
        case .algNone: proofs = [key.proof(method: "GET", url: url, accessToken: token, tamper: .algNone)]
        case .algHS256: proofs = [key.proof(method: "GET", url: url, accessToken: token, tamper: .algHS256)]
        case .wrongTyp: proofs = [key.proof(method: "GET", url: url, accessToken: token, tamper: .wrongTyp)]
        case .badSignature: proofs = [key.proof(method: "GET", url: url, accessToken: token, tamper: .signWithOtherKey)]
        case .twoProofs:
            proofs = [key.proof(method: "GET", url: url, accessToken: token), key.proof(method: "GET", url: url, accessToken: token)]
        }
        var headers = [("Accept", "application/vnd.auth+json"), ("Authorization", "DPoP \(token)")]
        headers += proofs.map { ("DPoP", $0) }
        let response = try await harness.http.send(.GET, url + "?client_id=demo-gateway", headers: headers)
        #expect(response.status == 401, "\(breakage)")
        #expect(response.header("WWW-Authenticate")?.hasPrefix(#"DPoP error="invalid_dpop_proof""#) == true, "\(breakage)")
        try await harness.finish()
    }

    @Test func replayedProofIsRefused() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        _ = try await flow.start()
        let proof = flow.key.proof(method: "GET", url: harness.base + "/authn/authenticate", accessToken: flow.token)
        let headers = [
            ("Accept", "application/vnd.auth+json"), ("Authorization", "DPoP \(flow.token)"), ("DPoP", proof), ("Session-Id", flow.sessionID ?? ""),
        ]
        let first = try await harness.http.send(.GET, harness.base + "/authn/authenticate", headers: headers)
        #expect(first.status == 200)
        let replay = try await harness.http.send(.GET, harness.base + "/authn/authenticate", headers: headers)
        #expect(replay.status == 401)
        #expect(replay.header("WWW-Authenticate")?.contains("invalid_dpop_proof") == true)
        try await harness.finish()
    }

    @Test func tokenPresentedAsBearerOrUnknownIsInvalidToken() async throws {
        let harness = try await DemoServerHarness.start()
        let key = TestDPoPKey()
        let (token, _) = try await harness.haapiToken(key: key)
        for authorization in ["Bearer \(token)", "DPoP not-a-token"] {
            let response = try await harness.http.send(
                .GET,
                harness.authorizeURL,
                headers: [
                    ("Accept", "application/vnd.auth+json"), ("Authorization", authorization),
                    ("DPoP", key.proof(method: "GET", url: harness.authorizeURL, accessToken: token)),
                ]
            )
            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
        }
        let missing = try await harness.http.send(.GET, harness.authorizeURL, headers: [("Accept", "application/vnd.auth+json")])
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate")?.hasPrefix("DPoP") == true)
        try await harness.finish()
    }

    @Test(arguments: [Breakage.missingProof, .wrongHTM, .wrongHTU, .staleIAT, .privateKeyInJWK, .algNone, .algHS256, .badSignature])
    func tokenEndpointRefusesBrokenProof(_ breakage: Breakage) async throws {
        let harness = try await DemoServerHarness.start()
        let key = TestDPoPKey()
        let url = harness.tokenURL
        let proof: String?
        switch breakage {
        case .missingProof: proof = nil
        case .wrongHTM: proof = key.proof(method: "GET", url: url)
        case .wrongHTU: proof = key.proof(method: "POST", url: harness.base + "/oauth/v2/oauth-revoke")
        case .staleIAT: proof = key.proof(method: "POST", url: url, iat: Int(Date().timeIntervalSince1970) - 600)
        case .privateKeyInJWK: proof = key.proof(method: "POST", url: url, tamper: .includePrivateKey)
        case .algNone: proof = key.proof(method: "POST", url: url, tamper: .algNone)
        case .algHS256: proof = key.proof(method: "POST", url: url, tamper: .algHS256)
        default: proof = key.proof(method: "POST", url: url, tamper: .signWithOtherKey)
        }
        let response = try await harness.tokenRequest(
            [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")],
            dpop: proof,
            authorization: harness.basicAuthorization
        )
        #expect(response.status == 400, "\(breakage)")
        #expect(response.json["error"] as? String == "invalid_dpop_proof", "\(breakage)")
        try await harness.finish()
    }

    @Test func tokenEndpointRefusesReplayedProof() async throws {
        let harness = try await DemoServerHarness.start()
        let key = TestDPoPKey()
        let proof = key.proof(method: "POST", url: harness.tokenURL)
        let fields = [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")]
        #expect(try await harness.tokenRequest(fields, dpop: proof, authorization: harness.basicAuthorization).status == 200)
        let replay = try await harness.tokenRequest(fields, dpop: proof, authorization: harness.basicAuthorization)
        #expect(replay.json["error"] as? String == "invalid_dpop_proof")
        try await harness.finish()
    }

    @Test func htuIsComparedWithoutQuery() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let first = try await flow.start()  // the proof's htu is the authorize URL without the query
        #expect(first.status == 200)
        try await harness.finish()
    }
}
