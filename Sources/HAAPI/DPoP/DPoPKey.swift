import Crypto
import Foundation

/// A P-256 key pair used for DPoP: one per login flow, and part of the result when final tokens are DPoP-bound.
///
/// Never log or print the private key; ``description`` is redacted.
public struct DPoPKey: Sendable, CustomStringConvertible {
    private let box: SigningKeyBox
    var privateKey: P256.Signing.PrivateKey { box.key }
    /// The public key as a JWK, as put into every proof header.
    public let publicJWK: PublicJWK
    /// The base64url DPoP proof header (`typ`, `alg`, `jwk`), the same for every proof of this key.
    let proofHeaderSegment: String

    /// Generates a fresh key.
    public init() { self.init(privateKey: P256.Signing.PrivateKey()) }

    /// Wraps an existing key.
    /// - Parameter privateKey: The P-256 private key.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.box = SigningKeyBox(key: privateKey)
        let raw = privateKey.publicKey.rawRepresentation  // x || y, 32 bytes each
        let jwk = PublicJWK(x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)))
        self.publicJWK = jwk
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.y)"}}"#
        self.proofHeaderSegment = Base64URL.encode(Array(header.utf8))
    }

    /// Loads a key from PEM (SEC1 `EC PRIVATE KEY` or PKCS#8 `PRIVATE KEY`).
    /// - Parameter pem: The PEM text.
    /// - Throws: ``HAAPIError/Code/crypto`` when it is not a P-256 private key.
    public init(pem: String) throws(HAAPIError) {
        do {
            self.init(privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem))
        } catch {
            throw HAAPIError(.crypto, "the PEM text is not a P-256 private key")
        }
    }

    /// The private key as PKCS#8 PEM, for a receiver that must use DPoP-bound tokens. Secret.
    public var privateKeyPEM: String { privateKey.pemRepresentation }

    /// The private key as a JWK JSON object (`kty`, `crv`, `x`, `y`, `d`). Secret.
    public var privateJWKJSON: String {
        let d = Base64URL.encode(privateKey.rawRepresentation)
        return #"{"kty":"EC","crv":"P-256","x":"\#(publicJWK.x)","y":"\#(publicJWK.y)","d":"\#(d)"}"#
    }

    /// The key thumbprint only; the private key is redacted.
    public var description: String { "DPoPKey(thumbprint: \(publicJWK.thumbprint), private key redacted)" }
}
