import Crypto
import Foundation

/// The tests' own DPoP signer: a P-256 key and RFC 9449 proofs, with knobs to break them.
/// P-256 keys are immutable values; swift-crypto does not mark them Sendable.
struct TestDPoPKey: @unchecked Sendable {
    let privateKey = P256.Signing.PrivateKey()

    var publicJWK: [String: Any] {
        let raw = privateKey.publicKey.rawRepresentation
        return ["kty": "EC", "crv": "P-256", "x": TestJWS.base64url(raw.prefix(32)), "y": TestJWS.base64url(raw.suffix(32))]
    }

    /// RFC 7638 thumbprint.
    var thumbprint: String {
        let jwk = publicJWK
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(jwk["x"] as? String ?? "")","y":"\#(jwk["y"] as? String ?? "")"}"#
        return TestJWS.sha256(canonical)
    }

    /// How to break a proof.
    enum Tamper {
        case none, includePrivateKey, algNone, algHS256, wrongTyp, signWithOtherKey
    }

    func proof(
        method: String,
        url: String,
        accessToken: String? = nil,
        nonce: String? = nil,
        iat: Int? = nil,
        jti: String = UUID().uuidString,
        tamper: Tamper = .none
    ) -> String {
        var jwk = publicJWK
        if tamper == .includePrivateKey { jwk["d"] = TestJWS.base64url(privateKey.rawRepresentation) }
        var header: [String: Any] = ["typ": tamper == .wrongTyp ? "JWT" : "dpop+jwt", "alg": "ES256", "jwk": jwk]
        var claims: [String: Any] = [
            "htm": method, "htu": url, "iat": iat ?? Int(Date().timeIntervalSince1970), "jti": jti,
        ]
        if let accessToken { claims["ath"] = TestJWS.sha256(accessToken) }
        if let nonce { claims["nonce"] = nonce }
        switch tamper {
        case .algNone:
            header["alg"] = "none"
            return TestJWS.unsigned(header: header, claims: claims)
        case .algHS256:
            header["alg"] = "HS256"
            return TestJWS.hs256(header: header, claims: claims)
        case .signWithOtherKey:
            return TestJWS.es256(header: header, claims: claims, key: P256.Signing.PrivateKey())
        default:
            return TestJWS.es256(header: header, claims: claims, key: privateKey)
        }
    }
}
