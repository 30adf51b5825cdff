/// Kiosk mode: a shared screen that resets itself for the next person.
///
/// After a sign-in ends (signed in, cancelled or failed) the page returns to the start after ``resetAfterSeconds``; a
/// page left alone for ``idleResetSeconds`` starts over; fields get `autocomplete="off"`; a finished session is destroyed
/// at once (its cookie cleared). The confirmation before cancelling stays.
public struct KioskSettings: Sendable {
    /// Whether kiosk mode is on (default off).
    public var enabled: Bool
    /// Seconds the final page stays before the start page returns (default 10).
    public var resetAfterSeconds: Int
    /// Seconds a page may stay untouched before the sign-in starts over (default 120).
    public var idleResetSeconds: Int

    /// Creates kiosk settings.
    /// - Parameters:
    ///   - enabled: Whether kiosk mode is on.
    ///   - resetAfterSeconds: Seconds before the final page returns to the start.
    ///   - idleResetSeconds: Seconds of no use before a page starts over.
    public init(enabled: Bool = false, resetAfterSeconds: Int = 10, idleResetSeconds: Int = 120) {
        self.enabled = enabled
        self.resetAfterSeconds = resetAfterSeconds
        self.idleResetSeconds = idleResetSeconds
    }
}
