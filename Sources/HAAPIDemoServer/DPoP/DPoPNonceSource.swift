import Foundation
import Synchronization

/// Server-issued DPoP nonces (RFC 9449 §8/§9), rotated every `lifetime`; the previous nonce stays valid
/// for one more period so requests in flight during a rotation are not refused.
final class DPoPNonceSource: Sendable {
    private struct State {
        var current: String
        var previous: String?
        var issuedAt: Date
    }

    private let state: Mutex<State>
    private let lifetime: TimeInterval

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
        self.state = Mutex(State(current: RandomToken.make(byteCount: 16), previous: nil, issuedAt: Date()))
    }

    /// The nonce to send in `DPoP-Nonce` now.
    func current(now: Date = Date()) -> String {
        state.withLock { state in
            rotateIfDue(&state, now: now)
            return state.current
        }
    }

    /// Whether a proof's `nonce` claim is acceptable now.
    func accepts(_ nonce: String?, now: Date = Date()) -> Bool {
        guard let nonce else { return false }
        return state.withLock { state in
            rotateIfDue(&state, now: now)
            return nonce == state.current || nonce == state.previous
        }
    }

    private func rotateIfDue(_ state: inout State, now: Date) {
        guard now.timeIntervalSince(state.issuedAt) >= lifetime else { return }
        state.previous = now.timeIntervalSince(state.issuedAt) >= 2 * lifetime ? nil : state.current
        state.current = RandomToken.make(byteCount: 16)
        state.issuedAt = now
    }
}
