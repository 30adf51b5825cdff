import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output gathered from a running process's pipes, each read to its end by a thread of its own with plain blocking
/// `read(2)` calls.
///
/// Not `FileHandle.readabilityHandler`: on Linux its dispatch source is cancelled asynchronously when the handler is
/// cleared, and the pipe's descriptor, closed when the pipe is released, can be closed (and its number reused) while
/// the source is still registered; a full run died of it in libdispatch's manager thread (SIGSEGV in
/// `_dispatch_event_loop_drain`, while "No secret in any command's output" ran its programs). A reader thread owns its
/// pipe until it has read the end, so the descriptor is closed only after the last read.
final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    /// The pipes whose end has not been read yet.
    private var openPipes = 0

    func append(_ data: Data, toError: Bool) {
        lock.withLock { if toError { errors.append(data) } else { output.append(data) } }
    }

    func text(error: Bool) -> String { lock.withLock { String(decoding: error ? errors : output, as: UTF8.self) } }

    /// Two pipes whose output is gathered from now on: give them to a process as its standard output and error.
    func pipes() -> (output: Pipe, error: Pipe) {
        let out = Pipe()
        let err = Pipe()
        read(out, toError: false)
        read(err, toError: true)
        return (out, err)
    }

    /// Waits until every pipe has been read to its end (the process, and whatever it started that holds its output,
    /// has ended), at most `limit`.
    func waitUntilRead(within limit: Duration = .seconds(5)) async {
        let deadline = ContinuousClock.now + limit
        while lock.withLock({ openPipes }) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Reads `pipe` to its end on a thread of its own.
    private func read(_ pipe: Pipe, toError: Bool) {
        lock.withLock { openPipes += 1 }
        let reader = Thread { [self] in
            let descriptor = pipe.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, into: $0) }
                if count > 0 {
                    append(Data(buffer[0..<count]), toError: toError)
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            lock.withLock { openPipes -= 1 }
            // Released here, after the last read: only now is its descriptor closed.
            withExtendedLifetime(pipe) {}
        }
        reader.stackSize = 256 * 1024
        reader.start()
    }

    /// Waits until standard output (or standard error) matches `pattern` (a regular expression with one group) and
    /// returns the group; gives up at `timeout`, or a second after `isRunning` says the process writing it ended (what it
    /// wrote last may still be on its way through the pipe), so that a process that stops at once fails the test at once.
    func waitFor(
        _ pattern: String,
        inStandardError: Bool = false,
        timeout: Duration = .seconds(60),
        isRunning: () -> Bool = { true }
    ) async throws -> String {
        let expression = try NSRegularExpression(pattern: pattern)
        var deadline = ContinuousClock.now + timeout
        var ended = false
        while ContinuousClock.now < deadline {
            if !ended, !isRunning() {
                ended = true
                deadline = min(deadline, ContinuousClock.now + .seconds(1))
            }
            let text = self.text(error: inStandardError)
            if let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range(at: 1), in: text)
            {
                return String(text[range])
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(
            .fileReadUnknown,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "no output matching \(pattern)\(ended ? " before the process ended" : ""); got:\n\(text(error: false))\n\(text(error: true))"
            ]
        )
    }
}

/// `read(2)` into `buffer`: what it returned.
private func readBytes(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}
