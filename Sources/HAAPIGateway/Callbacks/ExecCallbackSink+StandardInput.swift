import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ExecCallbackSink {
    /// The writing end of the program's standard input (non-blocking) and the document still to write to it; closed
    /// once all of it is written, or when the program stopped reading (`EPIPE`), so that the program sees its end.
    struct StandardInput {
        private var descriptor: Int32
        private let bytes: [UInt8]
        private var written = 0

        init(descriptor: Int32, bytes: [UInt8]) {
            self.descriptor = descriptor
            self.bytes = bytes
        }

        /// Writes as much as the pipe takes now; closes it when done or when the program cannot read any more.
        mutating func writeWhatFits() {
            while descriptor >= 0, written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    written += count
                } else if count < 0, errno == EINTR {
                    continue
                } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    return
                } else {
                    break
                }
            }
            close()
        }

        /// Closes the writing end (once).
        mutating func close() {
            guard descriptor >= 0 else { return }
            closeDescriptor(descriptor)
            descriptor = -1
        }
    }
}

/// `close(2)`, out of reach by that name inside ``ExecCallbackSink/StandardInput``, whose own `close()` hides it.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
