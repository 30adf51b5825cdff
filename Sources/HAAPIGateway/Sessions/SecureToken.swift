import Crypto
import Foundation
import HAAPI

/// Random, URL-safe tokens from the system CSPRNG (session ids, CSRF tokens).
package enum SecureToken {
    /// A base64url token of `byteCount` random bytes (default 32 bytes = 256 bits).
    package static func make(byteCount: Int = 32) -> String {
        RandomToken.make(byteCount: byteCount)
    }

    /// Compares two strings in time independent of where they differ.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
