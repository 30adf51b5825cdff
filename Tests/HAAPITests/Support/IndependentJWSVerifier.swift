import Crypto
import Foundation

/// A JWS verifier written independently of the library: splits the compact form by hand,
/// decodes with Foundation, verifies ES256 with swift-crypto.
struct IndependentJWSVerifier {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    struct Verified {
        let header: [String: Any]
        let claims: [String: Any]
    }

    static func base64URLDecode(_ text: Substring) throws -> Data {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { throw Failure("padding in base64url") }
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { throw Failure("invalid base64url") }
        return data
    }

    static func object(_ data: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw Failure("not a JSON object") }
        return object
    }

    /// Verifies with the key in the header's `jwk` (DPoP).
    static func verifyWithEmbeddedJWK(_ jws: String) throws -> Verified {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw Failure("not three parts") }
        let header = try object(try base64URLDecode(parts[0]))
        guard let jwk = header["jwk"] as? [String: Any] else { throw Failure("no jwk") }
        guard let x = jwk["x"] as? String, let y = jwk["y"] as? String else { throw Failure("jwk without x/y") }
        let raw = try base64URLDecode(Substring(x)) + base64URLDecode(Substring(y))
        let key = try P256.Signing.PublicKey(rawRepresentation: raw)
        return try verify(parts, header: header, key: key)
    }

    /// Verifies with a known public key (client assertions).
    static func verify(_ jws: String, key: P256.Signing.PublicKey) throws -> Verified {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw Failure("not three parts") }
        return try verify(parts, header: try object(try base64URLDecode(parts[0])), key: key)
    }

    private static func verify(_ parts: [Substring], header: [String: Any], key: P256.Signing.PublicKey) throws -> Verified {
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try base64URLDecode(parts[2]))
        let input = Data((parts[0] + "." + parts[1]).utf8)
        guard key.isValidSignature(signature, for: input) else { throw Failure("signature does not verify") }
        return Verified(header: header, claims: try object(try base64URLDecode(parts[1])))
    }

    static func sha256Base64URL(_ text: String) -> String {
        Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
