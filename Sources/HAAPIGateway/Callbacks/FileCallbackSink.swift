import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `file:PATH`: writes the outcome as JSON with mode 0600 (temporary file, then an atomic rename).
struct FileCallbackSink: CallbackSink {
    let path: String

    var name: String { "file:\(path)" }

    func deliver(_ delivery: CallbackDelivery) async throws {
        let document = delivery.document
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(SecureToken.make(byteCount: 8)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw GatewayError(.internalError, "cannot create the callback file next to \(path)") }
        var written = 0
        let ok = document.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result <= 0 { return false }
                written += result
            }
            return fsync(descriptor) == 0
        }
        close(descriptor)
        guard ok, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw GatewayError(.internalError, "cannot write the callback file \(path)")
        }
    }
}
