import Foundation
import Synchronization

/// One server-wide DPoP nonce (RFC 9449 §8/§9) for every client and key, rotated every `lifetime`.
final class DPoPNonceSource: Sendable {
    private let state: Mutex<RotatingNonce>
    private let lifetime: TimeInterval

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
        self.state = Mutex(RotatingNonce(now: Date()))
    }

    /// The nonce to send in `DPoP-Nonce` now.
    func current(now: Date = Date()) -> String {
        state.withLock { nonce in
            nonce.rotateIfDue(now: now, lifetime: lifetime)
            return nonce.current
        }
    }

    /// Whether a proof's `nonce` claim is acceptable now.
    func accepts(_ nonce: String?, now: Date = Date()) -> Bool {
        guard let nonce else { return false }
        return state.withLock { state in
            state.rotateIfDue(now: now, lifetime: lifetime)
            return state.accepts(nonce)
        }
    }
}
