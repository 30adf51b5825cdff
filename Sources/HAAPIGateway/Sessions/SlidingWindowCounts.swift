/// Events counted per key (a session id, a client address) in a sliding window: how many happened in the last
/// `window`, and how long until fewer than a bound remain in it.
struct SlidingWindowCounts {
    private var events: [String: [ContinuousClock.Instant]] = [:]
    /// Beyond this many tracked keys, keys whose events have all left the window are dropped.
    private let pruneThreshold = 10_000

    /// Counts an event of `key` at `now`.
    mutating func record(_ key: String, now: ContinuousClock.Instant, window: Duration) {
        events[key] = recent(key, now: now, window: window) + [now]
        if events.count > pruneThreshold {
            events = events.filter { !$0.value.allSatisfy { now - $0 >= window } }
        }
    }

    /// Whole seconds (at least 1) until fewer than `bound` events of `key` are in the window, or nil when already fewer.
    func secondsUntilBelow(_ bound: Int, for key: String, now: ContinuousClock.Instant, window: Duration) -> Int? {
        let recent = recent(key, now: now, window: window)
        guard recent.count >= bound else { return nil }
        // The event whose leaving brings the count below the bound.
        let wait = recent[recent.count - bound] + window - now
        return max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
    }

    /// Forgets the events of `key`.
    mutating func forget(_ key: String) {
        events[key] = nil
    }

    private func recent(_ key: String, now: ContinuousClock.Instant, window: Duration) -> [ContinuousClock.Instant] {
        (events[key] ?? []).filter { now - $0 < window }
    }
}
