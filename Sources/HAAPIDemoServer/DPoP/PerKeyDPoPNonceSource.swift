import Foundation
import Synchronization

/// DPoP nonces issued and checked per DPoP key (RFC 7638 thumbprint), each rotating on its own: a proof carrying
/// another key's nonce is not accepted. Curity does not document a nonce's scope (notes 1.4, [DPOPNONCE]); the strict
/// demo mode uses this to catch clients that share one nonce across keys or flows.
///
/// Memory is bounded: at most `capacity` keys; when full, keys whose nonces have all expired are dropped, then the
/// key whose nonce was issued longest ago.
final class PerKeyDPoPNonceSource: Sendable {
    private let nonces = Mutex<[String: RotatingNonce]>([:])
    private let lifetime: TimeInterval
    private let capacity: Int

    init(lifetime: TimeInterval, capacity: Int) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// The nonce to send in `DPoP-Nonce` to the holder of `keyThumbprint` now (issued on first use).
    func current(for keyThumbprint: String, now: Date = Date()) -> String {
        nonces.withLock { nonces in
            if var nonce = nonces[keyThumbprint] {
                nonce.rotateIfDue(now: now, lifetime: lifetime)
                nonces[keyThumbprint] = nonce
                return nonce.current
            }
            if nonces.count >= capacity { evict(&nonces, now: now) }
            let nonce = RotatingNonce(now: now)
            nonces[keyThumbprint] = nonce
            return nonce.current
        }
    }

    /// Whether a proof made with `keyThumbprint` may carry `nonce` now.
    func accepts(_ nonce: String?, keyThumbprint: String, now: Date = Date()) -> Bool {
        guard let nonce else { return false }
        return nonces.withLock { nonces in
            guard var issued = nonces[keyThumbprint] else { return false }
            issued.rotateIfDue(now: now, lifetime: lifetime)
            nonces[keyThumbprint] = issued
            return issued.accepts(nonce)
        }
    }

    /// How many keys hold a nonce (for tests of the bound).
    var keyCount: Int { nonces.withLock { $0.count } }

    private func evict(_ nonces: inout [String: RotatingNonce], now: Date) {
        nonces = nonces.filter { !$0.value.isStale(now: now, lifetime: lifetime) }
        while nonces.count >= capacity, let oldest = nonces.min(by: { $0.value.issuedAt < $1.value.issuedAt })?.key {
            nonces[oldest] = nil
        }
    }
}
