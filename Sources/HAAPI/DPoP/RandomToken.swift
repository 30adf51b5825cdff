import Crypto
import Foundation

/// Unguessable random strings for `state`, `nonce`, `jti` and PKCE verifiers.
enum RandomToken {
    /// `byteCount` random bytes from the system CSPRNG, base64url-encoded.
    /// - Parameter byteCount: The number of random bytes.
    static func make(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for index in bytes.indices { bytes[index] = generator.next() }
        return Base64URL.encode(bytes)
    }
}
