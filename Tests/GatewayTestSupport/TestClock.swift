import Foundation
import Synchronization

/// The tests' one clock: its time moves only when the test moves it (``advance(_:)``) or when code sleeps on it (a sleep
/// ends at once, at its deadline, so code that waits runs through without real time passing). It is read as what the
/// code under test takes: the monotonic instant of the gateway's `now` closures (``instant``), a wall-clock date (the
/// storage's expiry and leases, ``date``), or a `Clock` of its own.
final class TestClock: Clock, Sendable {
    /// A point in the clock's time: how long after its start.
    struct Instant: InstantProtocol {
        /// The time since the start.
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let elapsed = Mutex(Duration.zero)
    private let start = ContinuousClock.now
    /// Where ``date`` starts: a fixed date, far from any real one.
    private static let startDate = Date(timeIntervalSince1970: 1_900_000_000)

    var now: Instant { Instant(offset: elapsed.withLock { $0 }) }
    var minimumResolution: Duration { .zero }

    /// Moves the time to `deadline` (never back); throws when the task is cancelled.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        elapsed.withLock { if $0 < deadline.offset { $0 = deadline.offset } }
    }

    /// Moves the time forward.
    func advance(_ duration: Duration) { elapsed.withLock { $0 += duration } }

    /// The time as a monotonic instant.
    var instant: ContinuousClock.Instant { start + elapsed.withLock { $0 } }

    /// The time as a wall-clock date.
    var date: Date {
        let elapsed = elapsed.withLock { $0 }
        return Self.startDate + Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Whole seconds since the start.
    var seconds: Int64 { now.offset.components.seconds }
}
