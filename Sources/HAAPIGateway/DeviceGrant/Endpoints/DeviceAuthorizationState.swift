import HAAPI

/// Where one device authorization stands (RFC 8628 §3.4–3.5 names what the device is told in each).
enum DeviceAuthorizationState: Sendable {
    /// Nobody has started signing in with the code yet: `authorization_pending`.
    case waiting
    /// A person confirmed the code and is signing in: `authorization_pending`.
    case signingIn
    /// The sign-in succeeded; the tokens wait for the device's next poll.
    case approved(OAuthTokens)
    /// A poll is answering with the tokens (``DeviceTokenHandOver``); taken since `since`.
    case handingOver(OAuthTokens, since: ContinuousClock.Instant)
    /// The person refused the device, cancelled, or the sign-in failed: `access_denied`.
    case denied
}
