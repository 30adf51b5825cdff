import Crypto
import Foundation

/// Unguessable identifiers (tokens, codes, nonces, session ids).
enum RandomToken {
    /// `byteCount` random bytes as base64url.
    static func make(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// A string of `count` random decimal digits.
    static func digits(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    /// base64url(SHA-256(ASCII text)), as PKCE S256 and DPoP `ath` use.
    static func sha256(_ text: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(text.utf8)))
    }

    /// Compares secrets without an early exit.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
