import Foundation

/// Output gathered from a running process's pipes.
final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()

    func append(_ data: Data, toError: Bool) {
        lock.withLock { if toError { errors.append(data) } else { output.append(data) } }
    }

    func text(error: Bool) -> String { lock.withLock { String(decoding: error ? errors : output, as: UTF8.self) } }

    /// Two pipes whose output is gathered from now on: give them to a process as its standard output and error.
    func pipes() -> (output: Pipe, error: Pipe) {
        let out = Pipe()
        let err = Pipe()
        out.fileHandleForReading.readabilityHandler = { [self] in append($0.availableData, toError: false) }
        err.fileHandleForReading.readabilityHandler = { [self] in append($0.availableData, toError: true) }
        return (out, err)
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
