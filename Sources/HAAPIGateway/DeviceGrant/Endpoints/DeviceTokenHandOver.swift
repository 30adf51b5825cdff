import HAAPI

/// Tokens a poll is answering a device with, not yet known to have reached it.
///
/// A poll that meets approved tokens takes them for a hand-over (``DeviceAuthorizationStore/poll(deviceCode:clientID:)``)
/// instead of forgetting them at once: the authorization is forgotten when the answer has been written to the device's
/// connection (``DeviceAuthorizationStore/handedOver(_:)``), and the tokens wait again when it could not be
/// (``DeviceAuthorizationStore/handOverFailed(_:)``). A replica killed in between, or a store that could not note the
/// end, leaves the hand-over open: past ``leaseSeconds`` the device's next poll (never sooner than its interval, RFC 8628
/// §3.5) gets the same tokens again. So a sign-in's tokens reach the device at least once, as the sinks' outcomes do;
/// a second copy is the same tokens, never new ones, to the holder of the same device code.
package struct DeviceTokenHandOver: Sendable, Equatable {
    /// How long a hand-over under way keeps the tokens from other polls (which are told `authorization_pending`).
    /// Shorter than the default poll interval (5 s), so that a device whose answer was lost gets the tokens at its next
    /// poll (with `devices.pollIntervalSeconds` under 2, at its first poll 2 s on).
    package static let leaseSeconds = 2

    /// The tokens.
    package let tokens: OAuthTokens
    /// The device authorization's reference (``DeviceAuthorization/reference``).
    package let reference: String

    package init(tokens: OAuthTokens, reference: String) {
        self.tokens = tokens
        self.reference = reference
    }
}
