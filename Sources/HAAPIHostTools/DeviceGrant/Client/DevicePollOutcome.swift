import HAAPI

/// How polling the token endpoint for a device authorization ended (RFC 8628 §3.5).
public enum DevicePollOutcome: Sendable, Equatable {
    /// The person signed in: the tokens (RFC 6749 §5.1).
    case signedIn(OAuthTokens)
    /// The person or the gateway declined (`access_denied`).
    case denied(OAuthErrorResponse)
    /// The device code expired before the sign-in: its `expires_in` passed, or the gateway said `expired_token`.
    case expired
    /// The device's own time limit (`--timeout-seconds`) passed first.
    case timedOut
    /// The token endpoint refused with another OAuth error (`invalid_grant`, `invalid_client`, …).
    case refused(OAuthErrorResponse)
    /// The token endpoint's answer could not be used (not a transient failure: those are retried).
    case failed(HAAPIError)
    /// The polling task was cancelled.
    case interrupted
}
