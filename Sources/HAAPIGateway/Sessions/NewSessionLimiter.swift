/// Bounds the sign-ins one client address starts in a sliding window (``SessionSettings/maximumNewSessionsPerAddress``
/// within ``SessionSettings/newSessionWindowSeconds``), so that a script sending cookieless `GET /` can neither fill the
/// session cap nor start more than that many flows on the upstream; past the bound the page is 429 with `Retry-After`.
actor NewSessionLimiter {
    private var byAddress = SlidingWindowCounts()
    private var settings: SessionSettings
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameter now: The clock (injected by tests).
    init(settings: SessionSettings, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
    }

    /// Applies a new bound (a reload).
    func update(settings: SessionSettings) {
        self.settings = settings
    }

    /// Counts a new sign-in of `address` when the bound allows it and returns nil; otherwise returns the seconds until
    /// it does (nothing is counted). Without an address (a Unix socket) or with the bound off (0) every start is allowed.
    func admit(address: String?) -> Int? {
        guard let address, settings.maximumNewSessionsPerAddress > 0 else { return nil }
        let now = now()
        let window = Duration.seconds(settings.newSessionWindowSeconds)
        if let wait = byAddress.secondsUntilBelow(settings.maximumNewSessionsPerAddress, for: address, now: now, window: window) {
            return wait
        }
        byAddress.record(address, now: now, window: window)
        return nil
    }
}
