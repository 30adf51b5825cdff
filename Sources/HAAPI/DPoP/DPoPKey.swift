import Crypto
import Foundation

/// A P-256 key pair used for DPoP: one per login flow, and part of the result when final tokens are DPoP-bound.
///
/// Never log or print the private key; ``description`` is redacted.
public struct DPoPKey: Sendable, CustomStringConvertible {
    private let box: SigningKeyBox
    var privateKey: P256.Signing.PrivateKey { box.key }
    /// The public key's x and y, 32 bytes each. The JWK and the proof header are made from them when needed: kept as
    /// text they were about 430 bytes of every open sign-in (a heap profile, `artifacts/profiles/`), these are 64.
    private let publicPoint: InlineArray<64, UInt8>

    /// The public key as a JWK, as put into every proof header.
    public var publicJWK: PublicJWK {
        PublicJWK(x: Base64URL.encode((0..<32).lazy.map { publicPoint[$0] }), y: Base64URL.encode((32..<64).lazy.map { publicPoint[$0] }))
    }

    /// The base64url DPoP proof header (`typ`, `alg`, `jwk`), the same for every proof of this key.
    var proofHeaderSegment: String {
        let jwk = publicJWK
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.y)"}}"#
        return Base64URL.encode(header.utf8)
    }

    /// Generates a fresh key.
    public init() { self.init(privateKey: P256.Signing.PrivateKey()) }

    /// Wraps an existing key.
    /// - Parameter privateKey: The P-256 private key.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.box = SigningKeyBox(key: privateKey)
        let raw = privateKey.publicKey.rawRepresentation  // x || y, 32 bytes each
        self.publicPoint = InlineArray { raw[raw.startIndex + $0] }
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
