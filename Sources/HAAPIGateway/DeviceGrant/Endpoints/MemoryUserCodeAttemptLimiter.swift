/// The wrong user codes entered on the verification page, counted in this process's memory (``UserCodeAttemptLimiter``),
/// for the memory store: one process serves every page, so its counts are the deployment's.
actor MemoryUserCodeAttemptLimiter: UserCodeAttemptLimiter {
    private var counts = SlidingWindowCounts()
    private let settings: SettingsSource<DeviceSettings>
    private let now: @Sendable () -> ContinuousClock.Instant
    /// The key all wrong codes are also counted under.
    private static let everyone = "*"

    /// - Parameter now: The clock (injected by tests).
    init(settings: SettingsSource<DeviceSettings>, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
    }

    func retryAfter(address: String?) -> Int? {
        let settings = settings.current
        let now = now(), window = Duration.seconds(settings.wrongCodeWindowSeconds)
        let own = address.map { "a:" + $0 }
        // Without an address every entry counts as a guesser's; with one, only an address that guessed wrong itself.
        let hasGuessed = own.map { counts.secondsUntilBelow(1, for: $0, now: now, window: window) != nil } ?? true
        let waits = [
            hasGuessed ? counts.secondsUntilBelow(settings.maximumWrongCodes, for: Self.everyone, now: now, window: window) : nil,
            own.flatMap { counts.secondsUntilBelow(settings.maximumWrongCodesPerAddress, for: $0, now: now, window: window) },
        ]
        return waits.compactMap { $0 }.max()
    }

    func recordWrongCode(address: String?) {
        let now = now(), window = Duration.seconds(settings.current.wrongCodeWindowSeconds)
        counts.record(Self.everyone, now: now, window: window)
        if let address { counts.record("a:" + address, now: now, window: window) }
    }
}
