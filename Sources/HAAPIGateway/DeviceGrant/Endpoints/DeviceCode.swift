import Crypto
import Foundation

/// The device code (RFC 8628 §3.2 `device_code`): a bearer secret of 256 bits. The gateway keeps only its SHA-256,
/// never a usable copy.
package enum DeviceCode {
    /// A new device code.
    package static func make() -> String {
        SecureToken.make(byteCount: 32)
    }

    /// The key a device code is held under: its SHA-256, hex.
    package static func hash(_ deviceCode: String) -> String {
        SHA256.hash(data: Data(deviceCode.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
