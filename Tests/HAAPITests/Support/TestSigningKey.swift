import Crypto
import Foundation
import _CryptoExtras

/// A signing key generated in the test, its public JWK, and JWTs signed with it by hand (independently of the library's
/// verifier): for the ID token validation tests.
struct TestSigningKey: @unchecked Sendable {
    enum Material {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
        case p384(P384.Signing.PrivateKey)
        case p521(P521.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    let material: Material
    let keyID: String

    /// One 2048-bit RSA key for every RSA test (generating one takes a while).
    static let sharedRSA = TestSigningKey(material: .rsa(try! _RSA.Signing.PrivateKey(keySize: .bits2048)), keyID: "rsa-1")
    /// A second RSA key, for "another key with the same kid".
    static let otherRSA = TestSigningKey(material: .rsa(try! _RSA.Signing.PrivateKey(keySize: .bits2048)), keyID: "rsa-1")

    static func p256(_ keyID: String = "ec-1") -> TestSigningKey { TestSigningKey(material: .p256(.init()), keyID: keyID) }
    static func p384(_ keyID: String = "ec384-1") -> TestSigningKey { TestSigningKey(material: .p384(.init()), keyID: keyID) }
    static func p521(_ keyID: String = "ec521-1") -> TestSigningKey { TestSigningKey(material: .p521(.init()), keyID: keyID) }
    static func ed25519(_ keyID: String = "okp-1") -> TestSigningKey { TestSigningKey(material: .ed25519(.init()), keyID: keyID) }

    /// The key that signs `algorithm` in these tests.
    static func forAlgorithm(_ algorithm: String) -> TestSigningKey {
        switch algorithm {
        case "ES256": return p256()
        case "ES384": return p384()
        case "ES512": return p521()
        case "EdDSA": return ed25519()
        default: return sharedRSA
        }
    }

    /// The public JWK, with `kid` and the extra members given.
    func publicJWK(extra: [String: String] = [:]) -> [String: String] {
        var jwk: [String: String]
        func b64(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                of: "=",
                with: ""
            )
        }
        switch material {
        case .rsa(let key):
            let primitives = try! key.publicKey.getKeyPrimitives()
            jwk = ["kty": "RSA", "n": b64(primitives.modulus), "e": b64(primitives.publicExponent)]
        case .p256(let key):
            let raw = key.publicKey.rawRepresentation
            jwk = ["kty": "EC", "crv": "P-256", "x": b64(raw.prefix(32)), "y": b64(raw.suffix(32))]
        case .p384(let key):
            let raw = key.publicKey.rawRepresentation
            jwk = ["kty": "EC", "crv": "P-384", "x": b64(raw.prefix(48)), "y": b64(raw.suffix(48))]
        case .p521(let key):
            let raw = key.publicKey.rawRepresentation
            jwk = ["kty": "EC", "crv": "P-521", "x": b64(raw.prefix(66)), "y": b64(raw.suffix(66))]
        case .ed25519(let key):
            jwk = ["kty": "OKP", "crv": "Ed25519", "x": b64(key.publicKey.rawRepresentation)]
        }
        jwk["kid"] = keyID
        return jwk.merging(extra) { $1 }
    }

    /// A JWK Set document of `keys`.
    static func keySet(_ keys: [[String: String]]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
            of: "=",
            with: ""
        )
    }

    static func segment(_ object: [String: Any]) -> String {
        base64URL(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    /// A compact JWS of `claims` signed with `algorithm` (header `alg`, `kid` unless `keyID` is nil, and `extraHeader`).
    func sign(_ claims: [String: Any], algorithm: String, keyID: String?? = .none, extraHeader: [String: Any] = [:]) -> String {
        var header: [String: Any] = ["alg": algorithm, "typ": "JWT"]
        switch keyID {
        case .none: header["kid"] = self.keyID
        case .some(.none): break
        case .some(.some(let kid)): header["kid"] = kid
        }
        header.merge(extraHeader) { $1 }
        let input = Self.segment(header) + "." + Self.segment(claims)
        let data = Data(input.utf8)
        let signature: Data
        switch (material, algorithm) {
        case (.rsa(let key), "RS256"): signature = try! key.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation
        case (.rsa(let key), "RS384"): signature = try! key.signature(for: SHA384.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation
        case (.rsa(let key), "RS512"): signature = try! key.signature(for: SHA512.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation
        case (.rsa(let key), "PS256"): signature = try! key.signature(for: SHA256.hash(data: data), padding: .PSS).rawRepresentation
        case (.rsa(let key), "PS384"): signature = try! key.signature(for: SHA384.hash(data: data), padding: .PSS).rawRepresentation
        case (.rsa(let key), "PS512"): signature = try! key.signature(for: SHA512.hash(data: data), padding: .PSS).rawRepresentation
        case (.p256(let key), _): signature = try! key.signature(for: data).rawRepresentation
        case (.p384(let key), _): signature = try! key.signature(for: data).rawRepresentation
        case (.p521(let key), _): signature = try! key.signature(for: data).rawRepresentation
        case (.ed25519(let key), _): signature = try! key.signature(for: data)
        default: fatalError("no \(algorithm) signature with this key in the tests")
        }
        return input + "." + Self.base64URL(signature)
    }

    /// A public Ed448 JWK (RFC 8037 §2: `x` of 57 bytes) with `kid` and the extra members given. Its `x` is random bytes,
    /// not a point: the validator never uses an Ed448 key, it only names Ed448 when a token needs one.
    static func ed448JWK(_ keyID: String = "ed448-1", extra: [String: String] = [:]) -> [String: String] {
        let x = Data((0..<57).map { _ in UInt8.random(in: 0...255) })
        return ["kty": "OKP", "crv": "Ed448", "x": base64URL(x), "kid": keyID].merging(extra) { $1 }
    }

    /// A compact JWS with `header` and `claims` whose signature is `byteCount` random bytes (a token "signed" by a key
    /// the tests cannot sign with, Ed448).
    static func randomlySigned(_ claims: [String: Any], header: [String: Any], byteCount: Int) -> String {
        segment(header) + "." + segment(claims) + "." + base64URL(Data((0..<byteCount).map { _ in UInt8.random(in: 0...255) }))
    }

    /// An HMAC-signed token (`HS256`), which the validator must refuse whatever the key.
    static func hmacSigned(_ claims: [String: Any], secret: String) -> String {
        let input = segment(["alg": "HS256", "typ": "JWT"]) + "." + segment(claims)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return input + "." + base64URL(Data(mac))
    }

    /// An unsigned token (`alg: none`, empty signature).
    static func unsigned(_ claims: [String: Any]) -> String {
        segment(["alg": "none", "typ": "JWT"]) + "." + segment(claims) + "."
    }
}
