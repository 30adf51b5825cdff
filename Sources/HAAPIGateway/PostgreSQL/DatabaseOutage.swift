import Synchronization

/// Remembers that the database just failed to answer, so that for a short pause requests fail at once with a clear
/// page instead of each waiting out the operation's time limit while it is down. After the pause the next request
/// tries again.
final class DatabaseOutage: Sendable {
    private let failedAt = Mutex<ContinuousClock.Instant?>(nil)
    /// How long after a failure requests fail without trying.
    let pause: Duration

    init(pause: Duration = .seconds(2)) {
        self.pause = pause
    }

    /// Whether the database failed within the pause.
    var isDown: Bool {
        failedAt.withLock { at in at.map { ContinuousClock.now - $0 < pause } ?? false }
    }

    /// Notes the outcome of an operation: an unreachable or silent database starts the pause; an answer ends it.
    func record(_ error: PostgresStorageError?) {
        failedAt.withLock { at in
            switch error?.code {
            case .unavailable?, .timedOut?: at = .now
            case nil: at = nil
            default: break
            }
        }
    }
}
