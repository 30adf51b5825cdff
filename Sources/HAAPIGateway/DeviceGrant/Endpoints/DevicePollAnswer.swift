import HAAPI

/// What the token endpoint tells a device polling with its device code (RFC 8628 §3.5).
package enum DevicePollAnswer: Sendable, Equatable {
    /// The sign-in succeeded: the tokens, taken for a hand-over that the caller ends once the answer is written.
    case tokens(DeviceTokenHandOver)
    /// `authorization_pending`: nobody has finished signing in yet, or another poll is handing the tokens over.
    case pending
    /// `slow_down`: polled before the interval had passed; the interval grew by 5 s.
    case slowDown
    /// `access_denied`: the person refused, cancelled, or the sign-in failed.
    case denied
    /// `expired_token`: the device code expired before anyone signed in.
    case expired
    /// `invalid_grant`: no such device code (never issued, already used, forgotten long after it expired), or one issued
    /// to another client.
    case invalid

    /// The OAuth error code of an answer that is not tokens.
    var errorCode: String? {
        switch self {
        case .tokens: nil
        case .pending: "authorization_pending"
        case .slowDown: "slow_down"
        case .denied: "access_denied"
        case .expired: "expired_token"
        case .invalid: "invalid_grant"
        }
    }
}
