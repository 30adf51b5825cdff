import Foundation

/// One DPoP nonce (RFC 9449 §8/§9) that rotates every `lifetime`; the previous value stays valid for one more period
/// so requests in flight during a rotation are not refused.
struct RotatingNonce: Sendable {
    private(set) var current: String
    private(set) var previous: String?
    private(set) var issuedAt: Date

    init(now: Date) {
        current = RandomToken.make(byteCount: 16)
        previous = nil
        issuedAt = now
    }

    /// Rotates when the current value is `lifetime` old; after two periods without use the previous value goes too.
    mutating func rotateIfDue(now: Date, lifetime: TimeInterval) {
        guard now.timeIntervalSince(issuedAt) >= lifetime else { return }
        previous = now.timeIntervalSince(issuedAt) >= 2 * lifetime ? nil : current
        current = RandomToken.make(byteCount: 16)
        issuedAt = now
    }

    /// Whether a proof's `nonce` claim is the current or the previous value.
    func accepts(_ nonce: String) -> Bool {
        RandomToken.constantTimeEquals(nonce, current) || previous.map { RandomToken.constantTimeEquals(nonce, $0) } == true
    }

    /// Whether no value of this nonce can be accepted any more (both are past their periods).
    func isStale(now: Date, lifetime: TimeInterval) -> Bool {
        now.timeIntervalSince(issuedAt) >= 2 * lifetime
    }
}
