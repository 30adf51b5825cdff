import Crypto
import Foundation
import HAAPI

/// Random, URL-safe tokens from the system CSPRNG (session ids, CSRF tokens).
enum SecureToken {
    /// A base64url token of `byteCount` random bytes (default 32 bytes = 256 bits).
    static func make(byteCount: Int = 32) -> String {
        // Eight bytes per draw: the generator asks the kernel once per `next()`, and a byte at a time made that 32 calls.
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount + 7)
        while bytes.count < byteCount {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Base64URL.encode(bytes.prefix(byteCount))
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
