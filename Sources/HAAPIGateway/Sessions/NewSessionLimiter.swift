/// The sign-ins each client address started, counted in this process's memory (``NewSessionBudget``).
actor NewSessionLimiter: NewSessionBudget {
    private var byAddress = SlidingWindowCounts()
    private let settings: SettingsSource<SessionSettings>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameter now: The clock (injected by tests).
    init(settings: SettingsSource<SessionSettings>, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
    }

    func admit(address: String?) -> Int? {
        let settings = settings.current
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
