/// The kind of step a representation is, following the step factories of Curity's SDKs.
public enum StepKind: String, Sendable, Hashable, CaseIterable {
    /// An `authentication-step` whose first action is an `authenticator-selector` selector.
    case authenticatorSelector
    /// A step of forms and selectors for the user to fill in.
    case interactiveForm
    /// A `user-consent-step`.
    case userConsent
    /// A `redirection-step`: follow its action without user input.
    case redirection
    /// A `polling-step`.
    case polling
    /// A `continue-same-step`: stay on the previous step, show its messages.
    case continueSame
    /// An `oauth-authorization-response`: the flow is done.
    case oauthAuthorizationResponse
    /// A step with an `external-browser-flow` client operation.
    case externalBrowserClientOperation
    /// A step with a `bankid` client operation.
    case bankIDClientOperation
    /// A step with an `encap` client operation.
    case encapClientOperation
    /// A step with a `webauthn-registration` client operation.
    case webAuthnRegistrationClientOperation
    /// A step with a `webauthn-authentication` client operation.
    case webAuthnAuthenticationClientOperation
    /// A step with any other client operation.
    case genericClientOperation
    /// Anything else: render from actions, links and messages.
    case generic
}
