import Crypto
import Foundation
import _CryptoExtras

/// Signs client assertions: a private key from PEM (ES256, RS256, PS256) for `private_key_jwt`, or the client secret
/// (HS256) for `client_secret_jwt`. Made once per client; the keys are immutable, which makes sharing them safe.
struct ClientAssertionSigner: @unchecked Sendable {
    private enum Key {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey, padding: _RSA.Signing.Padding)
        case hmac(SymmetricKey)
    }

    private let key: Key
    /// The JWS `alg` the assertions carry.
    let algorithm: String
    /// The `kid` the assertions carry, if the client's key has one.
    let keyID: String?

    /// The signer for `authentication`, nil for methods without assertions.
    /// - Throws: ``HAAPIError/Code/crypto`` when the key does not load (its problem named, never the key).
    init?(for authentication: ClientAuthentication) throws(HAAPIError) {
        switch authentication {
        case .privateKeyJWT(let pem, let keyID, let algorithm):
            self.algorithm = algorithm.rawValue
            self.keyID = keyID
            self.key = try Self.privateKey(pem: pem, algorithm: algorithm)
        case .secretJWT(let secret):
            // RFC 7518 §3.2: an HS256 key must be at least 256 bits.
            guard secret.utf8.count >= 32 else { throw HAAPIError(.crypto, "a client_secret_jwt secret must be at least 32 bytes for HS256") }
            self.algorithm = "HS256"
            self.keyID = nil
            self.key = .hmac(SymmetricKey(data: Data(secret.utf8)))
        case .none, .secretBasic, .secretPost, .mutualTLS:
            return nil
        }
    }

    /// Why `pem` is no key for `algorithm`, or nil when it is one.
    static func problem(pem: String, algorithm: ClientAssertionAlgorithm) -> String? {
        do throws(HAAPIError) {
            _ = try privateKey(pem: pem, algorithm: algorithm)
            return nil
        } catch {
            return error.message
        }
    }

    private static func privateKey(pem: String, algorithm: ClientAssertionAlgorithm) throws(HAAPIError) -> Key {
        switch algorithm {
        case .es256:
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
                throw HAAPIError(.crypto, "the private_key_jwt key must be a PEM P-256 private key for ES256")
            }
            return .p256(key)
        case .rs256, .ps256:
            guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
                throw HAAPIError(.crypto, "the private_key_jwt key must be a PEM RSA private key (2048 bits or more) for \(algorithm.rawValue)")
            }
            return .rsa(key, padding: algorithm == .ps256 ? .PSS : .insecurePKCS1v1_5)
        }
    }

    /// The JWS signature of `signingInput` (RFC 7515 §5.1), raw `r || s` for ES256 (RFC 7518 §3.4).
    func signature(of signingInput: Data) throws(HAAPIError) -> Data {
        do {
            switch key {
            case .p256(let key): return try key.signature(for: signingInput).rawRepresentation
            case .rsa(let key, let padding): return try key.signature(for: signingInput, padding: padding).rawRepresentation
            case .hmac(let key): return Data(HMAC<SHA256>.authenticationCode(for: signingInput, using: key))
            }
        } catch {
            throw HAAPIError(.crypto, "a client assertion could not be signed")
        }
    }
}
