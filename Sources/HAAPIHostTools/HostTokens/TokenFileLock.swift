import Foundation
import HAAPIGateway

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock beside a token file (`<file>.lock`, mode 0600 in the file's private directory), so that of every
/// command refreshing that file at once (`token`, `keep`, the credential helpers) one refreshes and the others read what
/// it wrote: a server that rotates refresh tokens and refuses a used one (RFC 9700 §4.14.2) would otherwise end the
/// sign-in when two spend the same refresh token.
///
/// It is an `flock(2)` lock on an open descriptor: the kernel releases it when the process holding it ends, however it
/// ends, so a lock of a process that died never blocks. It is taken without blocking a thread: a taken lock is asked
/// again every 10 ms until `timeout`.
public enum TokenFileLock {
    /// Where the lock of `tokenPath` is.
    public static func path(for tokenPath: String) -> String { tokenPath + ".lock" }

    /// Runs `body` holding the lock of `tokenPath`.
    /// - Parameters:
    ///   - tokenPath: The token file.
    ///   - timeout: How long to wait for another holder (a refresh takes a request to the token endpoint).
    ///   - body: What to do under the lock.
    /// - Throws: ``GatewayError`` (`configuration`) when the lock file cannot be opened, `overloaded` when another
    ///   process holds it past `timeout`; what `body` throws.
    public static func withLock<Value>(
        of tokenPath: String,
        timeout: Duration = .seconds(60),
        _ body: () async throws -> Value
    ) async throws -> Value {
        let lockPath = path(for: tokenPath)
        // Never through a symlink: one planted where the lock belongs would have it create or open a file elsewhere.
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw GatewayError(.configuration, "cannot open the lock \(lockPath) beside the token file (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw GatewayError(.configuration, "cannot lock \(lockPath) (\(String(cString: strerror(errno))))")
            }
            guard ContinuousClock.now < deadline else {
                throw GatewayError(.overloaded, "another process held \(lockPath) for more than \(timeout.components.seconds) s")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }
}
