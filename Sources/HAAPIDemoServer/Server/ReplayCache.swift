import Foundation
import Synchronization

/// A bounded set of recently seen one-time identifiers (DPoP `jti`, client assertion `jti`).
///
/// Entries are kept for `retention`; when more than `capacity` live entries exist, the oldest are
/// dropped first (they are also the first to expire).
final class ReplayCache: Sendable {
    private struct State {
        var expiries: [String: Date] = [:]
        var order: [(key: String, expiry: Date)] = []
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let retention: TimeInterval

    init(capacity: Int, retention: TimeInterval) {
        self.capacity = capacity
        self.retention = retention
    }

    /// Records `key`; returns false when it was already seen within the retention window.
    func insertIfNew(_ key: String, now: Date = Date()) -> Bool {
        state.withLock { state in
            var dropCount = 0
            while dropCount < state.order.count,
                state.order[dropCount].expiry <= now || state.order.count - dropCount >= capacity
            {
                let entry = state.order[dropCount]
                if state.expiries[entry.key] == entry.expiry { state.expiries[entry.key] = nil }
                dropCount += 1
            }
            if dropCount > 0 { state.order.removeFirst(dropCount) }
            if let expiry = state.expiries[key], expiry > now { return false }
            let expiry = now.addingTimeInterval(retention)
            state.expiries[key] = expiry
            state.order.append((key, expiry))
            return true
        }
    }
}
