import Crypto
import Foundation

/// Verifies an id_token against a JWKS fetched from the server: ES256 with the `EC` P-256 key of its `kid`, or EdDSA
/// (RFC 8037) with the `OKP` Ed25519 key of its `kid`.
enum IDTokenVerifier {
    static func verify(_ idToken: String, jwks: [String: Any]) -> [String: Any]? {
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = TestJWS.header(of: idToken), let kid = header["kid"] as? String,
            let jwk = (jwks["keys"] as? [[String: Any]])?.first(where: { $0["kid"] as? String == kid }),
            let signature = TestJWS.base64urlDecode(parts[2])
        else { return nil }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        let verified: Bool
        switch (header["alg"] as? String, jwk["kty"] as? String, jwk["crv"] as? String) {
        case ("ES256", "EC", "P-256"):
            guard let x = (jwk["x"] as? String).flatMap({ TestJWS.base64urlDecode($0) }),
                let y = (jwk["y"] as? String).flatMap({ TestJWS.base64urlDecode($0) }),
                let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
            else { return nil }
            verified = key.isValidSignature(ecdsa, for: signingInput)
        case ("EdDSA", "OKP", "Ed25519"):
            guard let x = (jwk["x"] as? String).flatMap({ TestJWS.base64urlDecode($0) }), x.count == 32,
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x), signature.count == 64
            else { return nil }
            verified = key.isValidSignature(signature, for: signingInput)
        default:
            return nil
        }
        return verified ? TestJWS.claims(of: idToken) : nil
    }
}
