import HAAPIGateway
import Synchronization

/// The sessions this replica served last (``PostgresSessionStore``'s sign-ins), kept as live sessions with the row version they match, so that the
/// next
/// request for one of them here asks the database only whether the row is still at that version
/// (``PostgresSessionStorage/load(id:knownVersion:)``, ``PostgresSessionStorage/claim(id:claim:lease:knownVersion:)``)
/// rather than reading, opening and decoding it again. The database stays the only truth: an entry is used only when
/// the row is found, live and at the entry's version; otherwise the row's document is used and the entry dropped.
///
/// A request takes its entry out (``take(id:)``) and puts it back when it has saved or released the sign-in
/// (``keep(_:id:)``), so two requests on one replica never share a session object through the cache. At most
/// `capacity` entries are kept; the oldest kept goes first.
final class SessionCache<Session: Sendable>: Sendable {
    /// A session as it is stored at `version`.
    struct Entry: Sendable {
        let session: Session
        let version: Int64
        /// The document stored at `version` (a check-in that produces the same bytes writes nothing).
        let document: [UInt8]
        /// The session's revision when it matched the document.
        let revision: Int
    }

    private struct State {
        var entries: [String: (entry: Entry, serial: Int)] = [:]
        /// Ids in the order they were kept, with the serial they were kept under (an id kept again later appears twice;
        /// only the entry with its current serial counts).
        var order: [(id: String, serial: Int)] = []
        var head = 0
        var serial = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The entry of session `id`, removed from the cache; nil when there is none.
    func take(id: String) -> Entry? {
        state.withLock { $0.entries.removeValue(forKey: id)?.entry }
    }

    /// Keeps `entry` as session `id`'s, in place of any other; the oldest entries go when the cache is full.
    func keep(_ entry: Entry, id: String) {
        guard capacity > 0 else { return }
        state.withLock { state in
            state.serial += 1
            state.entries[id] = (entry, state.serial)
            state.order.append((id, state.serial))
            while state.entries.count > capacity, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if state.entries[oldest.id]?.serial == oldest.serial { state.entries[oldest.id] = nil }
            }
            // Ids whose entries were taken or replaced linger in `order` until they reach its head; compacting it when
            // it is twice the cache keeps it bounded.
            if state.order.count > 2 * capacity + 64 {
                state.order = state.order[state.head...].filter { state.entries[$0.id]?.serial == $0.serial }
                state.head = 0
            }
        }
    }

    /// Forgets session `id`.
    func remove(id: String) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// How many sessions are kept.
    var count: Int { state.withLock { $0.entries.count } }

    /// How many ids the eviction queue holds, stale and passed ones included (bounded by about twice the capacity).
    var queueLength: Int { state.withLock { $0.order.count } }
}
