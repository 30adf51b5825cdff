import Synchronization

/// Whether the database is known to be down: it did not answer an operation (unreachable, refused, or silent past the
/// operation's limit), and has not answered one since. While it is, a person's request is told at once instead of
/// waiting out an operation's limit again; one probe at a time asks the database whether it answers again
/// (``PostgresDatabase``), and the first answer, the probe's or any other operation's, ends the outage.
final class DatabaseOutage: Sendable {
    private struct State {
        /// Why the database is down, when it is.
        var reason: String?
        /// Whether a probe is asking the database.
        var probing = false
    }

    private let state = Mutex(State())

    /// Why the database is down, or nil when it is not known to be.
    var reason: String? { state.withLock { $0.reason } }

    /// Whether the database is known to be down.
    var isDown: Bool { reason != nil }

    /// Notes the outcome of an operation: an unreachable or silent database starts an outage; any answer ends it (an
    /// error the server sent is an answer).
    /// - Returns: Whether a probe is to start now (an outage began and no probe runs); the caller then runs one until
    ///   ``probeGoesOn(stopping:)`` says it is over.
    @discardableResult
    func record(_ error: PostgresStorageError?) -> Bool {
        state.withLock { state in
            switch error?.code {
            case .unavailable?, .timedOut?:
                // The first reason stays (the probe may explain it better, ``explain(_:)``).
                if state.reason == nil { state.reason = error?.message }
                guard !state.probing else { return false }
                state.probing = true
                return true
            case .cancelled?:
                return false
            default:
                state.reason = nil
                return false
            }
        }
    }

    /// Replaces the reason of an outage under way with a better one (what one connection met, named); nothing when the
    /// outage has ended.
    func explain(_ reason: String) {
        state.withLock { state in
            if state.reason != nil { state.reason = reason }
        }
    }

    /// Asked by the probe after each of its attempts: whether the outage goes on (it ends the probe otherwise, so that a
    /// failure noted from now on starts a new one).
    /// - Parameter stopping: The gateway is stopping: the probe ends whatever the outage.
    func probeGoesOn(stopping: Bool = false) -> Bool {
        state.withLock { state in
            guard state.reason != nil, !stopping else {
                state.probing = false
                return false
            }
            return true
        }
    }
}
