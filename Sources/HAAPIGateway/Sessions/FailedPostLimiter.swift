/// Bounds failed form posts per session and per client address in a sliding window (B13, anti-automation).
///
/// A failed post is one refused as forged or naming no button, or one the upstream answers with wrong credentials or
/// invalid input. Past either bound the next posts are refused with 429 until the oldest failure leaves the window;
/// the session itself is kept, so the person continues once the window has moved on.
actor FailedPostLimiter {
    private var bySession: [String: [ContinuousClock.Instant]] = [:]
    private var byAddress: [String: [ContinuousClock.Instant]] = [:]
    private var settings: SessionSettings
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Beyond this many tracked sessions or addresses, entries whose failures have all left the window are dropped.
    private let pruneThreshold = 10_000

    /// - Parameter now: The clock (injected by tests).
    init(settings: SessionSettings, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
    }

    /// Applies new bounds (a reload).
    func update(settings: SessionSettings) {
        self.settings = settings
    }

    /// Seconds until a post from this session and address is allowed again, or nil when it is allowed now.
    func retryAfter(session: String?, address: String?) -> Int? {
        let now = now()
        var waits: [Duration] = []
        if let session, let wait = wait(bySession[session], bound: settings.maximumFailedPostsPerSession, now: now) { waits.append(wait) }
        if let address, let wait = wait(byAddress[address], bound: settings.maximumFailedPostsPerAddress, now: now) { waits.append(wait) }
        guard let longest = waits.max() else { return nil }
        return max(1, Int(longest.components.seconds) + (longest.components.attoseconds > 0 ? 1 : 0))
    }

    /// Counts a failed post against the session and the address.
    func recordFailure(session: String?, address: String?) {
        let now = now()
        if let session { bySession[session, default: []] = recent(bySession[session], now: now) + [now] }
        if let address { byAddress[address, default: []] = recent(byAddress[address], now: now) + [now] }
        if bySession.count > pruneThreshold { bySession = bySession.filter { !recent($0.value, now: now).isEmpty } }
        if byAddress.count > pruneThreshold { byAddress = byAddress.filter { !recent($0.value, now: now).isEmpty } }
    }

    /// Forgets a session's failures (it ended or moved to a new id); the address keeps its count.
    func forget(session: String) {
        bySession[session] = nil
    }

    private var window: Duration { .seconds(settings.failedPostWindowSeconds) }

    private func recent(_ failures: [ContinuousClock.Instant]?, now: ContinuousClock.Instant) -> [ContinuousClock.Instant] {
        (failures ?? []).filter { now - $0 < window }
    }

    /// How long until fewer than `bound` failures are in the window, or nil when already fewer.
    private func wait(_ failures: [ContinuousClock.Instant]?, bound: Int, now: ContinuousClock.Instant) -> Duration? {
        let recent = recent(failures, now: now)
        guard recent.count >= bound else { return nil }
        // The failure whose leaving brings the count below the bound.
        return recent[recent.count - bound] + window - now
    }
}
