import Foundation

/// The process's standard input, as the credential helpers read it (git's `key=value` lines, Docker's server URL).
package enum StandardInput {
    /// Reads standard input to its end on a thread of its own: a read that waits for the writer never holds one of Swift's
    /// pool's threads (two on a two-core machine), which the helper's refresh and time limits run on.
    package static func readToEnd() async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: FileHandle.standardInput.readDataToEndOfFile())  // off the pool: a thread of its own
            }
        }
    }
}
