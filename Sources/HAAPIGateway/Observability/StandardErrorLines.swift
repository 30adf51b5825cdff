#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a log line to standard error with one `write(2)`, finishing a short write and retrying an interrupted one:
/// no stdio lock or buffer to flush, and lines of concurrent requests never interleave below the pipe's atomic size.
enum StandardErrorLines {
    static func emit(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // Standard error is gone or full: a log line is not worth blocking or failing a request.
                }
            }
        }
    }
}
