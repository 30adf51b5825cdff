import Crypto
import Foundation

/// A PKCE pair (RFC 7636) with method `S256`. The verifier is a secret.
public struct PKCE: Sendable, Hashable {
    /// The code verifier (43 characters from 32 random bytes by default).
    public let verifier: String
    /// The code challenge: base64url(SHA-256(ASCII verifier)).
    public let challenge: String
    /// Always `S256`.
    public let method = "S256"

    /// Creates a pair with a verifier from 32 random bytes.
    public init() { self.init(verifier: RandomToken.make(byteCount: 32)) }

    /// Creates a pair for a given verifier (for tests against RFC 7636 appendix B).
    /// - Parameter verifier: The verifier.
    public init(verifier: String) {
        self.verifier = verifier
        self.challenge = PKCE.challenge(for: verifier)
    }

    /// The S256 challenge for `verifier`.
    /// - Parameter verifier: The verifier.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
    }
}
