/// One device authorization request (RFC 8628 §3.1): who asked, the user code, and how far the sign-in has come. The
/// device code itself is not kept, only its SHA-256 (``DeviceAuthorizationStore``).
struct DeviceAuthorization: Sendable {
    /// A reference that names this authorization without being a secret (in outcomes as the starter's reference, and in
    /// log lines).
    let reference: String
    /// The device client that asked.
    let client: DeviceClient
    /// The normalized user code.
    let userCode: String
    /// The scopes the device asked for (RFC 8628 §3.1 `scope`), nil for the gateway's configured scopes.
    let scopes: [String]?
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
