import Crypto

/// The public part of a P-256 key as a JWK (RFC 7517), members `kty`, `crv`, `x`, `y` only.
public struct PublicJWK: Sendable, Hashable, Codable {
    /// Always `EC`.
    public let kty: String
    /// Always `P-256`.
    public let crv: String
    /// The base64url x coordinate.
    public let x: String
    /// The base64url y coordinate.
    public let y: String

    /// Creates a JWK.
    /// - Parameters:
    ///   - x: The base64url x coordinate.
    ///   - y: The base64url y coordinate.
    public init(x: String, y: String) {
        self.kty = "EC"
        self.crv = "P-256"
        self.x = x
        self.y = y
    }

    /// The RFC 7638 thumbprint (base64url SHA-256 of the canonical JSON), as used in `jkt`.
    public var thumbprint: String {
        let canonical = #"{"crv":"\#(crv)","kty":"\#(kty)","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256.hash(data: Array(canonical.utf8)))
    }
}
