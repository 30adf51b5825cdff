import Crypto
import Foundation

/// Signs the demo server's ID tokens with one key of ``DemoIDTokenAlgorithm``: ES256 (P-256) or EdDSA (Ed25519).
struct IDTokenSigner: Sendable {
    private enum Key {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    private let key: ImmutableKey<Key>
    /// The key's `kid`: its RFC 7638 thumbprint (for an impostor, the key it claims to be).
    let keyID: String

    /// A signer with a fresh key for `algorithm`.
    init(algorithm: DemoIDTokenAlgorithm) {
        let key = Self.freshKey(for: algorithm)
        self.init(key: key, keyID: Self.publicJWK(of: key).thumbprint)
    }

    private init(key: Key, keyID: String) {
        self.key = ImmutableKey(key)
        self.keyID = keyID
    }

    private static func freshKey(for algorithm: DemoIDTokenAlgorithm) -> Key {
        switch algorithm {
        case .es256: .p256(P256.Signing.PrivateKey())
        case .ed25519: .ed25519(Curve25519.Signing.PrivateKey())
        }
    }

    /// The algorithm of the key.
    var algorithm: DemoIDTokenAlgorithm {
        switch key.value {
        case .p256: .es256
        case .ed25519: .ed25519
        }
    }

    /// A signer with a fresh key of the same algorithm that claims this one's `kid`: its signatures do not verify with
    /// the published key.
    func impostor() -> IDTokenSigner {
        IDTokenSigner(key: Self.freshKey(for: algorithm), keyID: keyID)
    }

    /// The public key as a JWKS entry (`kid`, `use` `sig` and the JWS `alg`).
    var publicJWK: [String: String] {
        var jwk = Self.publicJWK(of: key.value).members
        jwk["kid"] = keyID
        jwk["use"] = "sig"
        jwk["alg"] = algorithm.jwsAlgorithm
        return jwk
    }

    /// The key's required public members (RFC 7518 §6.2.1, RFC 8037 §2) and their thumbprint.
    private static func publicJWK(of key: Key) -> (members: [String: String], thumbprint: String) {
        switch key {
        case .p256(let privateKey):
            let jwk = ECPublicJWK(privateKey.publicKey)
            return (["kty": "EC", "crv": "P-256", "x": jwk.x, "y": jwk.y], jwk.thumbprint)
        case .ed25519(let privateKey):
            let jwk = OKPPublicJWK(privateKey.publicKey)
            return (["kty": "OKP", "crv": "Ed25519", "x": jwk.x], jwk.thumbprint)
        }
    }

    /// Returns a compact JWS of the given claims (header `alg`, `typ`, `kid`).
    func sign(claims: [String: JSONValue], type: String = "JWT") throws -> String {
        let header: [String: JSONValue] = ["alg": .string(algorithm.jwsAlgorithm), "typ": .string(type), "kid": .string(keyID)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
        let signature: Data
        switch key.value {
        case .p256(let privateKey): signature = try privateKey.signature(for: Data(signingInput.utf8)).rawRepresentation  // r || s
        case .ed25519(let privateKey): signature = try privateKey.signature(for: Data(signingInput.utf8))  // RFC 8037 §3.1: R || S
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
