/// A device authorization as the memory store holds it (``MemoryDeviceAuthorizations``): the request, and how far it
/// has come.
struct PendingDeviceAuthorization: Sendable {
    let authorization: DeviceAuthorization
    /// The client address that asked, if known.
    let address: String?
    /// When the codes stop working (`expires_in`).
    let expiresAt: ContinuousClock.Instant
    /// The least time between polls, in seconds: the configured interval plus 5 s for every `slow_down` (RFC 8628 §3.5).
    var intervalSeconds: Int
    /// When the device last polled.
    var lastPoll: ContinuousClock.Instant?
    /// How many times the user code was entered on the verification page.
    var entries = 0
    var state: DeviceAuthorizationState = .waiting
}
