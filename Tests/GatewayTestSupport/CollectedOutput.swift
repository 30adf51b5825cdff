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
}
