/// Bounds failed form posts per session and per client address in a sliding window (B13, anti-automation).
///
/// A failed post is one refused as forged or naming no button, or one the upstream answers with wrong credentials or
/// invalid input. Past either bound the next posts are refused with 429 until the oldest failure leaves the window;
/// the session itself is kept, so the person continues once the window has moved on.
actor FailedPostLimiter {
    private var bySession = SlidingWindowCounts()
    private var byAddress = SlidingWindowCounts()
    private let settings: SettingsSource<SessionSettings>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameter now: The clock (injected by tests).
    init(settings: SettingsSource<SessionSettings>, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
    }

    /// Seconds until a post from this session and address is allowed again, or nil when it is allowed now.
    func retryAfter(session: String?, address: String?) -> Int? {
        let now = now()
        let settings = settings.current
        let window = Duration.seconds(settings.failedPostWindowSeconds)
        let waits = [
            session.flatMap { bySession.secondsUntilBelow(settings.maximumFailedPostsPerSession, for: $0, now: now, window: window) },
            address.flatMap { byAddress.secondsUntilBelow(settings.maximumFailedPostsPerAddress, for: $0, now: now, window: window) },
        ]
        return waits.compactMap { $0 }.max()
    }

    /// Counts a failed post against the session and the address.
    func recordFailure(session: String?, address: String?) {
        let now = now()
        let window = Duration.seconds(settings.current.failedPostWindowSeconds)
        if let session { bySession.record(session, now: now, window: window) }
        if let address { byAddress.record(address, now: now, window: window) }
    }

    /// Forgets a session's failures (it ended or moved to a new id); the address keeps its count.
    func forget(session: String) {
        bySession.forget(session)
    }
}
