import Foundation

/// A clock the test moves forward by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: Duration = .zero
    private let base = ContinuousClock.now

    var now: ContinuousClock.Instant { lock.withLock { base + offset } }
    func advance(_ duration: Duration) { lock.withLock { offset += duration } }
}
