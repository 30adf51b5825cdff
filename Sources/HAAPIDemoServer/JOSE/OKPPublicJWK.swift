import Crypto
import Foundation

/// A public Ed25519 key as a JWK (RFC 8037 §2: `kty` `OKP`, `crv` `Ed25519`, `x` the 32 bytes of the key), with its
/// RFC 7638 thumbprint.
struct OKPPublicJWK: Sendable, Equatable {
    let x: String

    init(_ key: Curve25519.Signing.PublicKey) {
        x = Base64URL.encode(key.rawRepresentation)
    }

    /// RFC 7638 JWK SHA-256 thumbprint, base64url (the members RFC 8037 Appendix A.3 uses: `crv`, `kty`, `x`).
    var thumbprint: String {
        let canonical = #"{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}"#
        return Base64URL.encode(SHA256.hash(data: Data(canonical.utf8)))
    }
}
