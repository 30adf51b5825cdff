import Crypto
import Foundation
import _CryptoExtras

/// A public signature key from a JWK Set (RFC 7517 §4, RFC 7518 §6, RFC 8037 §2): RSA (`n`, `e`, at least 2048 bits),
/// EC on P-256, P-384 or P-521 (`crv`, `x`, `y`), or OKP on Ed25519 (`crv`, `x`).
///
/// A key verifies only the algorithms of its type and curve, only its own `alg` when the JWK names one, and only when
/// its `use` (if any) is `sig` and its `key_ops` (if any) include `verify` (RFC 7517 §4.2–4.4). Ed448 keys (OKP) are
/// not read: swift-crypto cannot verify them (``JSONWebKeySet`` remembers them only to name Ed448 in a refusal).
public struct JSONWebKey: @unchecked Sendable {
    // swift-crypto's public key types are immutable values; verifying with them from several tasks is safe.
    private enum Material {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case p521(P521.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
    }

    /// What one member of a set's `keys` is, for ``JSONWebKeySet``.
    enum Reading {
        /// A key that can verify an accepted algorithm.
        case key(JSONWebKey)
        /// A public Ed448 signature key (its `kid`, if any), which cannot be used here.
        case ed448(keyID: String?)
        /// Anything else: another type, curve or size, an encryption key, private members, or not a JWK.
        case skipped
    }

    private let material: Material
    /// `kid`, if the JWK has one.
    public let keyID: String?
    /// `alg`, if the JWK restricts the key to one algorithm.
    public let algorithm: String?
    private let usableForSignatures: Bool

    /// Reads a public JWK; nil for key types, curves and sizes that cannot verify an accepted algorithm (a JWKS may hold
    /// encryption keys and other types, which are skipped; so are Ed448 keys), and for JWKs that carry private members.
    /// - Parameter jwk: One member of the set's `keys`.
    public init?(_ jwk: JSONValue) {
        guard case .key(let key) = Self.read(jwk) else { return nil }
        self = key
    }

    private init(material: Material, keyID: String?, algorithm: String?, usableForSignatures: Bool) {
        self.material = material
        self.keyID = keyID
        self.algorithm = algorithm
        self.usableForSignatures = usableForSignatures
    }

    /// Reads one member of a set's `keys`, telling an Ed448 signature key apart from the others that are skipped.
    static func read(_ jwk: JSONValue) -> Reading {
        guard case .object(let members) = jwk else { return .skipped }
        // A published set never holds private material; a JWK that does is not trusted at all.
        guard members["d"] == nil, members["p"] == nil, members["q"] == nil, members["k"] == nil else { return .skipped }
        func bytes(_ name: String) -> Data? { members[name]?.stringValue.flatMap(Base64URL.decode) }
        let keyID = members["kid"]?.stringValue
        let algorithm = members["alg"]?.stringValue
        let use = members["use"]?.stringValue
        let operations: [String]? = {
            guard case .array(let values)? = members["key_ops"] else { return nil }
            return values.compactMap(\.stringValue)
        }()
        let usableForSignatures = (use == nil || use == "sig") && (operations == nil || operations?.contains("verify") == true)
        let material: Material
        switch members["kty"]?.stringValue {
        case "RSA":
            guard let n = bytes("n"), let e = bytes("e"), let key = try? _RSA.Signing.PublicKey(n: n, e: e), key.keySizeInBits >= 2048 else {
                return .skipped
            }
            material = .rsa(key)
        case "EC":
            guard let x = bytes("x"), let y = bytes("y") else { return .skipped }
            switch members["crv"]?.stringValue {
            case "P-256":
                guard x.count == 32, y.count == 32, let key = try? P256.Signing.PublicKey(rawRepresentation: x + y) else { return .skipped }
                material = .p256(key)
            case "P-384":
                guard x.count == 48, y.count == 48, let key = try? P384.Signing.PublicKey(rawRepresentation: x + y) else { return .skipped }
                material = .p384(key)
            case "P-521":
                guard x.count == 66, y.count == 66, let key = try? P521.Signing.PublicKey(rawRepresentation: x + y) else { return .skipped }
                material = .p521(key)
            default:
                return .skipped
            }
        case "OKP":
            // RFC 8037 §2: `x` is the public key's bytes (32 for Ed25519, 57 for Ed448); X25519/X448 are for key agreement.
            guard let x = bytes("x") else { return .skipped }
            switch members["crv"]?.stringValue {
            case "Ed25519":
                guard x.count == 32, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { return .skipped }
                material = .ed25519(key)
            case "Ed448":
                // Named in a refusal only when it could otherwise have verified the token's EdDSA.
                let forEdDSA = algorithm == nil || algorithm == JWSAlgorithm.edDSA.rawValue || algorithm == "Ed448"
                return x.count == 57 && usableForSignatures && forEdDSA ? .ed448(keyID: keyID) : .skipped
            default:
                return .skipped
            }
        default:
            return .skipped
        }
        return .key(JSONWebKey(material: material, keyID: keyID, algorithm: algorithm, usableForSignatures: usableForSignatures))
    }

    /// Whether this key may verify a signature made with `algorithm`.
    /// - Parameter algorithm: The header's algorithm.
    public func canVerify(_ algorithm: JWSAlgorithm) -> Bool {
        guard usableForSignatures, self.algorithm == nil || self.algorithm == algorithm.rawValue else { return false }
        switch (material, algorithm) {
        case (.rsa, .rs256), (.rsa, .rs384), (.rsa, .rs512), (.rsa, .ps256), (.rsa, .ps384), (.rsa, .ps512): return true
        case (.p256, .es256), (.p384, .es384), (.p521, .es512): return true
        case (.ed25519, .edDSA): return true
        default: return false
        }
    }

    /// Whether `signature` is a valid JWS signature of `signingInput` by this key with `algorithm` (RFC 7515 §5.2,
    /// RFC 7518 §3.3–3.5: ECDSA signatures as `r || s`; RFC 8037 §3.1: EdDSA signatures of 64 bytes for Ed25519).
    /// - Parameters:
    ///   - signature: The decoded third part of the compact JWS.
    ///   - signingInput: The ASCII bytes of `header.payload`.
    ///   - algorithm: The header's algorithm.
    public func verifies(_ signature: Data, of signingInput: Data, with algorithm: JWSAlgorithm) -> Bool {
        guard canVerify(algorithm) else { return false }
        switch (material, algorithm) {
        case (.rsa(let key), _):
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            switch algorithm {
            case .rs256: return key.isValidSignature(rsaSignature, for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)
            case .rs384: return key.isValidSignature(rsaSignature, for: SHA384.hash(data: signingInput), padding: .insecurePKCS1v1_5)
            case .rs512: return key.isValidSignature(rsaSignature, for: SHA512.hash(data: signingInput), padding: .insecurePKCS1v1_5)
            case .ps256: return key.isValidSignature(rsaSignature, for: SHA256.hash(data: signingInput), padding: .PSS)
            case .ps384: return key.isValidSignature(rsaSignature, for: SHA384.hash(data: signingInput), padding: .PSS)
            case .ps512: return key.isValidSignature(rsaSignature, for: SHA512.hash(data: signingInput), padding: .PSS)
            case .es256, .es384, .es512, .edDSA: return false
            }
        case (.p256(let key), .es256):
            guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: signingInput)
        case (.p384(let key), .es384):
            guard let ecdsa = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: signingInput)
        case (.p521(let key), .es512):
            guard let ecdsa = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: signingInput)
        case (.ed25519(let key), .edDSA):
            // RFC 8032 §5.1.7: the whole signing input is signed (no pre-hash); R || S, 32 bytes each.
            guard signature.count == 64 else { return false }
            return key.isValidSignature(signature, for: signingInput)
        default:
            return false
        }
    }
}
