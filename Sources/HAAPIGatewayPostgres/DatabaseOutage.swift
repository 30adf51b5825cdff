import HAAPIGateway
import Synchronization

/// Whether the database is known to be down, so that a person's page is told at once instead of waiting out an
/// operation's limit again. One probe at a time asks the database (``PostgresDatabase``); the first answer, the probe's
/// or any other operation's, ends the outage.
///
/// - A refused or closed connection (`unavailable`) is an outage at once.
/// - An operation that ran out of time (`timedOut`) makes the database suspect: pages fail at once while the probe asks
///   it (on a loaded machine one slow query is no outage: the probe's answer ends the doubt at once), and only when the
///   probe fails too is it down, which `/readyz` says.
final class DatabaseOutage: Sendable {
    private struct State {
        /// Why the database is down, when it is.
        var reason: String?
        /// Whether an operation ran out of time and the probe has not answered yet.
        var suspect = false
        /// Whether a probe is asking the database.
        var probing = false
    }

    private let state = Mutex(State())

    /// Why the database is down, or nil when it is not known to be.
    var reason: String? { state.withLock { $0.reason } }

    /// Whether the database is known to be down.
    var isDown: Bool { reason != nil }

    /// Whether a person's page is told at once: the database is down, or suspect while the probe asks it.
    var failsAtOnce: Bool { state.withLock { $0.reason != nil || $0.suspect } }

    /// Notes the outcome of an operation: an unreachable database starts an outage, a silent one a doubt; any answer ends
    /// both (an error the server sent is an answer).
    /// - Returns: Whether a probe is to start now (no probe runs); the caller then runs one until ``probeGoesOn(stopping:)``
    ///   says it is over.
    @discardableResult
    func record(_ error: PostgresStorageError?) -> Bool {
        state.withLock { state in
            switch error?.code {
            case .unavailable?:
                // The first reason stays (the probe may explain it better, ``explain(_:)``).
                if state.reason == nil { state.reason = error?.message }
            case .timedOut?:
                if state.reason == nil { state.suspect = true }
            case .cancelled?:
                return false
            default:
                state.reason = nil
                state.suspect = false
                return false
            }
            guard !state.probing else { return false }
            state.probing = true
            return true
        }
    }

    /// The probe could not reach the database either: it is down (a doubt becomes an outage).
    func confirm(_ reason: String) {
        state.withLock { state in
            if state.reason == nil { state.reason = reason }
            state.suspect = false
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
                // A doubt the probe could not settle (the gateway is stopping) fails nothing.
                state.suspect = false
                return false
            }
            return true
        }
    }
}
