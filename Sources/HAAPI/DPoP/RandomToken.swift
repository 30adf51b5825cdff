import Crypto
import Foundation

/// Unguessable random strings: `state`, `nonce`, `jti` and PKCE verifiers here, session ids and CSRF tokens in the
/// gateway.
package enum RandomToken {
    /// `byteCount` random bytes from the system CSPRNG, base64url-encoded.
    /// - Parameter byteCount: The number of random bytes.
    package static func make(byteCount: Int = 32) -> String {
        // Eight bytes per draw: the generator asks the kernel once per `next()`, and a byte at a time made 32 calls of a
        // token (1.5 % of the gateway's step path in a profile, for each DPoP proof's `jti`; `artifacts/profiles/`).
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount + 7)
        while bytes.count < byteCount {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Base64URL.encode(bytes.prefix(byteCount))
    }
}
