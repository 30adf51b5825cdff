import Crypto
import Foundation

/// Verifies an ES256 id_token against a JWKS fetched from the server.
enum IDTokenVerifier {
    static func verify(_ idToken: String, jwks: [String: Any]) -> [String: Any]? {
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = TestJWS.header(of: idToken), header["alg"] as? String == "ES256",
            let kid = header["kid"] as? String,
            let jwk = (jwks["keys"] as? [[String: Any]])?.first(where: { $0["kid"] as? String == kid }),
            let x = (jwk["x"] as? String).flatMap({ TestJWS.base64urlDecode($0) }), let y = (jwk["y"] as? String).flatMap({ TestJWS.base64urlDecode($0) }),
            let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
            let signatureBytes = TestJWS.base64urlDecode(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return nil }
        return TestJWS.claims(of: idToken)
    }
}
