import Crypto
import Foundation
import Testing

@testable import HAAPI

/// DPoP proofs checked by an independent verifier.
@Suite struct DPoPProofTests {
    @Test func proofVerifiesWithEmbeddedJWKAndHasExactHeaderAndClaims() throws {
        let key = DPoPKey()
        let url = try #require(URL(string: "https://Idp.Example.com:8443/dev/authn/authenticate?serviceProviderId=x&state=y#frag"))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let proof = try DPoPProof.make(key: key, method: "post", url: url, accessToken: "token-abc", nonce: "nonce-1", issuedAt: now)
        let verified = try IndependentJWSVerifier.verifyWithEmbeddedJWK(proof)

        #expect(Set(verified.header.keys) == ["typ", "alg", "jwk"])
        #expect(verified.header["typ"] as? String == "dpop+jwt")
        #expect(verified.header["alg"] as? String == "ES256")
        let jwk = try #require(verified.header["jwk"] as? [String: String])
        #expect(Set(jwk.keys) == ["kty", "crv", "x", "y"])
        #expect(jwk["kty"] == "EC" && jwk["crv"] == "P-256")

        #expect(Set(verified.claims.keys) == ["jti", "htm", "htu", "iat", "ath", "nonce"])
        #expect(verified.claims["htm"] as? String == "POST")
        #expect(verified.claims["htu"] as? String == "https://idp.example.com:8443/dev/authn/authenticate")
        #expect((verified.claims["iat"] as? NSNumber)?.intValue == 1_700_000_000)
        #expect(verified.claims["ath"] as? String == IndependentJWSVerifier.sha256Base64URL("token-abc"))
        #expect(verified.claims["nonce"] as? String == "nonce-1")
        #expect(((verified.claims["jti"] as? String)?.count ?? 0) >= 16)
    }

    @Test func proofWithoutTokenOrNonceHasNoAthOrNonce() throws {
        let proof = try DPoPProof.make(key: DPoPKey(), method: "POST", url: try #require(URL(string: "https://idp/oauth/token")))
        let verified = try IndependentJWSVerifier.verifyWithEmbeddedJWK(proof)
        #expect(Set(verified.claims.keys) == ["jti", "htm", "htu", "iat"])
        #expect(verified.claims["htu"] as? String == "https://idp/oauth/token")
    }

    @Test func nonceWithJSONSpecialCharactersSurvivesExactly() throws {
        let nonce = "a\"b\\c/d\u{1}é"
        let proof = try DPoPProof.make(key: DPoPKey(), method: "GET", url: try #require(URL(string: "https://idp/p")), nonce: nonce)
        #expect(try IndependentJWSVerifier.verifyWithEmbeddedJWK(proof).claims["nonce"] as? String == nonce)
    }

    @Test func tamperedProofFailsTheIndependentVerifier() throws {
        let proof = try DPoPProof.make(key: DPoPKey(), method: "GET", url: try #require(URL(string: "https://idp/a")))
        var parts = proof.split(separator: ".").map(String.init)
        let otherClaims = Data(#"{"htm":"POST"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        parts[1] = otherClaims
        #expect(throws: IndependentJWSVerifier.Failure.self) {
            try IndependentJWSVerifier.verifyWithEmbeddedJWK(parts.joined(separator: "."))
        }
    }

    @Test func jtiIsUniqueOverTenThousandProofs() throws {
        let key = DPoPKey()
        let url = try #require(URL(string: "https://idp/x"))
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let proof = try DPoPProof.make(key: key, method: "GET", url: url)
            let payload = try #require(proof.split(separator: ".").dropFirst().first)
            let claims = try IndependentJWSVerifier.object(try IndependentJWSVerifier.base64URLDecode(payload))
            seen.insert(try #require(claims["jti"] as? String))
        }
        #expect(seen.count == 10_000)
    }

    @Test func privateKeyExportsRoundTripAndDescriptionIsRedacted() throws {
        let key = DPoPKey()
        let reloaded = try DPoPKey(pem: key.privateKeyPEM)
        #expect(reloaded.publicJWK == key.publicJWK)
        #expect(key.privateJWKJSON.contains("\"d\":"))
        #expect(!key.description.contains(key.privateKeyPEM))
        #expect(!"\(key)".contains("PRIVATE"))
    }

    @Test func nonceStoreKeepsOneNoncePerKey() {
        let store = DPoPNonceStore()
        let first = DPoPKey()
        let second = DPoPKey()
        store.update("n1", for: first)
        store.update("n2", for: second)
        #expect(store.nonce(for: first) == "n1")
        #expect(store.nonce(for: second) == "n2")
        #expect(store.nonce(for: DPoPKey()) == nil)
    }

    @Test("htu: scheme and host in lower case, no query, fragment or user; the same answer when asked again, whatever the query")
    func htuIsTheSameWhenAskedAgain() throws {
        let cases: [(String, String)] = [
            ("https://Idp.Example.com:8443/dev/authn/authenticate?state=1", "https://idp.example.com:8443/dev/authn/authenticate"),
            ("https://Idp.Example.com:8443/dev/authn/authenticate?state=2#x", "https://idp.example.com:8443/dev/authn/authenticate"),
            ("HTTPS://user:secret@IDP.example.com/oauth/token", "https://idp.example.com/oauth/token"),
            ("https://idp.example.com/oauth/token#fragment", "https://idp.example.com/oauth/token"),
            ("http://127.0.0.1:8443/a%20b/c?q", "http://127.0.0.1:8443/a%20b/c"),
        ]
        for _ in 0..<3 {
            for (address, expected) in cases {
                #expect(DPoPProof.htu(for: try #require(URL(string: address))) == expected, "\(address)")
            }
        }
    }
}
