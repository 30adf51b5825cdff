/// Bounds the wrong user codes entered on the verification page (RFC 8628 §5.1: "the authorization server SHOULD
/// rate-limit user code attempts"): per client address (`devices.maximumWrongCodesPerAddress`) and from all addresses
/// together (`devices.maximumWrongCodes`), each within `devices.wrongCodeWindowSeconds`. Past its bound an address gets
/// 429 before the code is looked up, so a guesser learns nothing more.
///
/// The bound of all addresses together holds back only addresses that have entered a wrong code themselves in the
/// window: a person who types the right code at the first try gets through whatever guessers elsewhere do (before,
/// 100 wrong codes from anywhere locked every person out for the window). A guesser then gets at most
/// `maximumWrongCodes` wrong codes in a window from all its addresses, plus one more per further address: the chance of
/// guessing a waiting code is bounded in docs/security.md (B23).
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
        let own = address.map { "a:" + $0 }
        // Without an address every entry counts as a guesser's; with one, only an address that guessed wrong itself.
        let hasGuessed = own.map { counts.secondsUntilBelow(1, for: $0, now: now, window: window) != nil } ?? true
        let waits = [
            hasGuessed ? counts.secondsUntilBelow(settings.maximumWrongCodes, for: Self.everyone, now: now, window: window) : nil,
            own.flatMap { counts.secondsUntilBelow(settings.maximumWrongCodesPerAddress, for: $0, now: now, window: window) },
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
