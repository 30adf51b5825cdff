import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file with mode 0600 through a temporary file beside it (created exclusively, fsync'd) and an atomic rename,
/// so a reader sees the old or the new content, never a part, and never a moment with wider permissions.
package enum AtomicFile {
    #if canImport(Glibc)
    private static let systemWrite = Glibc.write
    #else
    private static let systemWrite = Darwin.write
    #endif

    package static func write(_ bytes: [UInt8], to path: String) throws(GatewayError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(SecureToken.make(byteCount: 8)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw GatewayError(.internalError, "cannot create a file next to \(path)") }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result <= 0 { return false }
                written += result
            }
            return fsync(descriptor) == 0
        }
        close(descriptor)
        guard ok, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw GatewayError(.internalError, "cannot write \(path)")
        }
    }
}
