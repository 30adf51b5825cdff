import Foundation

/// A flag set once from any task: whether a test body has started (so that a failure before it can be retried).
final class StartSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var fired: Bool { lock.withLock { value } }

    func fire() { lock.withLock { value = true } }
}
