import Synchronization

/// A `Clock` whose sleeps end at once, moving its time to their deadline: code that waits runs through without real
/// time passing, and the test reads when each step happened.
final class VirtualClock: Clock, Sendable {
    /// A point in virtual time: how long after the clock's start.
    struct Instant: InstantProtocol {
        /// The time since the start.
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let time = Mutex(Instant(offset: .zero))

    var now: Instant { time.withLock { $0 } }
    var minimumResolution: Duration { .zero }

    /// Moves the time to `deadline` (never back); throws when the task is cancelled.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        time.withLock { if $0 < deadline { $0 = deadline } }
    }

    /// Seconds since the start (whole seconds in these tests).
    var seconds: Int64 { now.offset.components.seconds }
}
