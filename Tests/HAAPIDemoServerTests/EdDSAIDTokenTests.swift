import Crypto
import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIDemoServer

/// The demo signing its ID tokens with Ed25519 (`idTokenSigningAlgorithm: .ed25519`), as a Curity token profile with an
/// EdDSA key does ([EDDSA]): the JWKS, discovery and a signed-in user's ID token, spoken over raw HTTP.
@Suite("ID tokens the demo signs with Ed25519 (RFC 8037)")
struct EdDSAIDTokenTests {
    static let jwksPath = "/oauth/v2/oauth-anonymous/jwks"

    /// Signs in as demo/demo (password, then the notice) and exchanges the code; returns the flow and the ID token.
    static func signInAsDemo(_ harness: DemoServerHarness) async throws -> (flow: HAAPIFlowDriver, idToken: String) {
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await LoginFlowTests.passwordForm(flow)
        let afterPassword = try await flow.submit(try #require(form.action(kind: "login")), ["userName": "demo", "password": "demo"])
        let notice = Step(try await flow.follow(afterPassword))
        let done = try await flow.submit(try #require(notice.action(kind: "continue")))
        #expect(Step(done).type == "oauth-authorization-response")
        let tokens = try await flow.exchange(done)
        #expect(tokens.status == 200, "\(tokens.text)")
        return (flow, try #require(tokens.json["id_token"] as? String))
    }

    @Test("with .ed25519 the JWKS has one OKP Ed25519 key (x of 32 bytes, use sig, alg EdDSA, kid its RFC 7638 thumbprint) and discovery lists EdDSA")
    func jwksPublishesTheEd25519Key() async throws {
        let harness = try await DemoServerHarness.start { $0.idTokenSigningAlgorithm = .ed25519 }
        let jwks = try await harness.http.send(.GET, harness.base + Self.jwksPath).json
        let keys = try #require(jwks["keys"] as? [[String: Any]])
        #expect(keys.count == 1)
        let key = try #require(keys.first)
        #expect(key["kty"] as? String == "OKP")
        #expect(key["crv"] as? String == "Ed25519")
        #expect(key["use"] as? String == "sig")
        #expect(key["alg"] as? String == "EdDSA")
        #expect(key["d"] == nil && key["y"] == nil)
        let x = try #require(key["x"] as? String)
        #expect(TestJWS.base64urlDecode(x)?.count == 32)
        // RFC 7638 §3.2 with the required members of an OKP key (RFC 8037 §2, Appendix A.3).
        #expect(key["kid"] as? String == TestJWS.sha256(#"{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}"#))
        let metadata = try await harness.http.send(.GET, harness.issuer + "/.well-known/openid-configuration").json
        #expect(metadata["id_token_signing_alg_values_supported"] as? [String] == ["EdDSA"])
        try await harness.finish()
    }

    @Test("the Ed25519 JWK's x and thumbprint of RFC 8037 Appendix A.1's public key are those of A.2 and A.3")
    func okpThumbprintMatchesRFC8037() throws {
        let x = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
        let jwk = OKPPublicJWK(try Curve25519.Signing.PublicKey(rawRepresentation: try #require(TestJWS.base64urlDecode(x))))
        #expect(jwk.x == x)
        #expect(jwk.thumbprint == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
    }

    @Test(
        "by default the demo signs with ES256 and discovery says so; advertisedIDTokenAlgorithms replaces the list (Ed448, HS256) without changing the key"
    )
    func discoveryListsTheSigningAlgorithm() async throws {
        let plain = try await DemoServerHarness.start()
        let metadata = try await plain.http.send(.GET, plain.issuer + "/.well-known/openid-configuration").json
        #expect(metadata["id_token_signing_alg_values_supported"] as? [String] == ["ES256"])
        try await plain.finish()

        let advertising = try await DemoServerHarness.start {
            $0.idTokenSigningAlgorithm = .ed25519
            $0.advertisedIDTokenAlgorithms = ["EdDSA", "Ed448", "HS256"]
        }
        let advertised = try await advertising.http.send(.GET, advertising.issuer + "/.well-known/openid-configuration").json
        #expect(advertised["id_token_signing_alg_values_supported"] as? [String] == ["EdDSA", "Ed448", "HS256"])
        let jwks = try await advertising.http.send(.GET, advertising.base + Self.jwksPath).json
        #expect((jwks["keys"] as? [[String: Any]])?.map { $0["crv"] as? String } == ["Ed25519"])
        try await advertising.finish()
    }

    @Test("a demo user's ID token has header alg EdDSA and the key's kid, and verifies with the JWKS's Ed25519 key")
    func idTokenVerifiesWithTheEd25519Key() async throws {
        let harness = try await DemoServerHarness.start { $0.idTokenSigningAlgorithm = .ed25519 }
        let (flow, idToken) = try await Self.signInAsDemo(harness)
        let jwks = try await harness.http.send(.GET, harness.base + Self.jwksPath).json
        let header = try #require(TestJWS.header(of: idToken))
        #expect(header["alg"] as? String == "EdDSA")
        #expect(header["kid"] as? String == (jwks["keys"] as? [[String: Any]])?.first?["kid"] as? String)
        let signature = try #require(TestJWS.base64urlDecode(idToken.split(separator: ".")[2]))
        #expect(signature.count == 64)
        let claims = try #require(IDTokenVerifier.verify(idToken, jwks: jwks))
        #expect(claims["iss"] as? String == harness.issuer)
        #expect(claims["sub"] as? String == "demo")
        #expect(claims["aud"] as? String == "demo-gateway")
        #expect(claims["nonce"] as? String == flow.oidcNonce)
        try await harness.finish()
    }

    @Test("with idTokenFault wrongSignature and .ed25519, the token is signed by another Ed25519 key under the published kid and does not verify")
    func wrongSignatureFaultUsesAnotherEd25519Key() async throws {
        let harness = try await DemoServerHarness.start {
            $0.idTokenSigningAlgorithm = .ed25519
            $0.idTokenFault = .wrongSignature
        }
        let (_, idToken) = try await Self.signInAsDemo(harness)
        let jwks = try await harness.http.send(.GET, harness.base + Self.jwksPath).json
        let header = try #require(TestJWS.header(of: idToken))
        #expect(header["alg"] as? String == "EdDSA")
        #expect(header["kid"] as? String == (jwks["keys"] as? [[String: Any]])?.first?["kid"] as? String)
        #expect(IDTokenVerifier.verify(idToken, jwks: jwks) == nil)
        try await harness.finish()
    }

    /// Verifies an EdDSA token with Python's cryptography: argv is the JWK's `x` and the token; prints `alg` and `sub`.
    static let pythonVerify = """
        import base64, json, sys
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
        decode = lambda text: base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        x, token = sys.argv[1:3]
        header, claims, signature = token.split(".")
        Ed25519PublicKey.from_public_bytes(decode(x)).verify(decode(signature), (header + "." + claims).encode())
        print(json.loads(decode(header))["alg"], json.loads(decode(claims))["sub"])
        """

    @Test(
        "a demo-signed Ed25519 ID token verifies with Python's cryptography (an Ed25519 implementation this project did not write); a changed claim does not",
        .enabled(if: TestTools.cryptographyAvailable, "needs Python's cryptography (pip install cryptography)"),
        .startsPrograms()
    )
    func idTokenVerifiesWithAnIndependentImplementation() async throws {
        let harness = try await DemoServerHarness.start { $0.idTokenSigningAlgorithm = .ed25519 }
        let (_, idToken) = try await Self.signInAsDemo(harness)
        let jwks = try await harness.http.send(.GET, harness.base + Self.jwksPath).json
        let x = try #require((jwks["keys"] as? [[String: Any]])?.first?["x"] as? String)
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let verified = try await runProgram(python, ["python3", "-c", Self.pythonVerify, x, idToken])
        #expect(verified.status == 0, "\(verified.standardError)")
        #expect(verified.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "EdDSA demo")
        var parts = idToken.split(separator: ".").map(String.init)
        var claims = try #require(TestJWS.claims(of: idToken))
        claims["sub"] = "admin"
        parts[1] = TestJWS.base64url(TestJWS.json(claims))
        let refused = try await runProgram(python, ["python3", "-c", Self.pythonVerify, x, parts.joined(separator: ".")])
        #expect(refused.status != 0, "a changed claim must not verify")
        try await harness.finish()
    }
}
