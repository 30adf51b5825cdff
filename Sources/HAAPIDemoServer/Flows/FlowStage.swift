/// Where a login flow stands; each `/authn` endpoint accepts only its own stage.
enum FlowStage: Sendable, Equatable {
    /// The authenticator selector is shown.
    case selectingAuthenticator
    /// A username-password form of the given authenticator path is shown.
    case password(authenticatorPath: String)
    /// The password was right; a redirection-step leads to the notice (demo user).
    case notice
    /// A one-time code was emailed and is expected.
    case enterCode
    /// The SMS send form is shown; its continue action (the code form) is not accepted yet.
    case smsSendCode
    /// A code was "texted"; the continue action's code form is accepted (and the send form again, to resend).
    case smsVerifyCode
    /// Waiting for approval on another device.
    case awaitingApproval
    /// The external-browser client operation is shown.
    case externalBrowser
    /// The passkey option's username form is shown.
    case passkeyUsername
    /// The `webauthn-registration` client operation is shown; its challenge is in the flow.
    case passkeyRegistration
    /// The `webauthn-authentication` client operation is shown; its challenge is in the flow.
    case passkeyAuthentication
    /// The user authenticated; the consent step is shown.
    case consent
    /// Too many wrong passwords.
    case locked
    /// The flow ended (authorization response or error); nothing more is accepted.
    case finished
}
