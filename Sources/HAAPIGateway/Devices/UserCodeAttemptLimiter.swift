/// Bounds the wrong user codes entered on the verification page (RFC 8628 §5.1: "the authorization server SHOULD
/// rate-limit user code attempts"): per client address (`devices.maximumWrongCodesPerAddress`) and from all addresses
/// together (`devices.maximumWrongCodes`), each within `devices.wrongCodeWindowSeconds`. Past either bound the page answers
/// 429 before looking the code up, so a guesser learns nothing more.
actor UserCodeAttemptLimiter {
    private var counts = SlidingWindowCounts()
    private var settings: DeviceSettings
    private let now: @Sendable () -> ContinuousClock.Instant
    /// The key all wrong codes are also counted under.
    private static let everyone = "*"

    /// - Parameter now: The clock (injected by tests).
    init(settings: DeviceSettings, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
    }

    /// Applies new bounds (a reload).
    func update(settings: DeviceSettings) {
        self.settings = settings
    }

    /// Seconds until `address` may enter a code again, or nil when it may now.
    func retryAfter(address: String?) -> Int? {
        let now = now(), window = Duration.seconds(settings.wrongCodeWindowSeconds)
        let waits = [
            counts.secondsUntilBelow(settings.maximumWrongCodes, for: Self.everyone, now: now, window: window),
            address.flatMap { counts.secondsUntilBelow(settings.maximumWrongCodesPerAddress, for: "a:" + $0, now: now, window: window) },
        ]
        return waits.compactMap { $0 }.max()
    }

    /// Counts a wrong code entered from `address`.
    func recordWrongCode(address: String?) {
        let now = now(), window = Duration.seconds(settings.wrongCodeWindowSeconds)
        counts.record(Self.everyone, now: now, window: window)
        if let address { counts.record("a:" + address, now: now, window: window) }
    }
}
