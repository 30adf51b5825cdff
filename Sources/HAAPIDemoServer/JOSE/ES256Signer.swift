import Crypto
import Foundation

/// Signs JWTs with ES256 (the id_token signing key of the demo server).
struct ES256Signer: Sendable {
    private let key: ImmutableKey<P256.Signing.PrivateKey>
    let keyID: String

    init(privateKey: P256.Signing.PrivateKey = .init()) {
        self.key = ImmutableKey(privateKey)
        self.keyID = ECPublicJWK(privateKey.publicKey).thumbprint
    }

    /// A signer with a fresh key that claims `keyID` (another key's): its signatures do not verify with that key.
    static func impostor(of keyID: String) -> ES256Signer {
        ES256Signer(privateKey: .init(), keyID: keyID)
    }

    private init(privateKey: P256.Signing.PrivateKey, keyID: String) {
        self.key = ImmutableKey(privateKey)
        self.keyID = keyID
    }

    private var privateKey: P256.Signing.PrivateKey { key.value }

    /// The public key as a JWKS entry.
    var publicJWK: [String: String] {
        let jwk = ECPublicJWK(privateKey.publicKey)
        return ["kty": "EC", "crv": "P-256", "x": jwk.x, "y": jwk.y, "kid": keyID, "use": "sig", "alg": "ES256"]
    }

    /// Returns a compact JWS of the given claims.
    func sign(claims: [String: JSONValue], type: String = "JWT") throws -> String {
        let header: [String: JSONValue] = ["alg": .string("ES256"), "typ": .string(type), "kid": .string(keyID)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
        let signature = try privateKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
