/// Signed start links (`/start?…&exp=…&sig=…`): an application starts a sign-in for one screen or user with its own
/// reference and per-sign-in authorize parameters, signed with HMAC-SHA256 under a shared secret. Off unless
/// `startLinks.secretFile` is set.
public struct StartLinkSettings: Sendable, Equatable {
    /// The authorize parameters a link may carry, when allowed.
    public static let allowableParameters = ["login_hint", "ui_locales", "acr_values", "prompt"]

    /// The HMAC key (from `startLinks.secretFile`); nil: links are not served.
    public var secret: String?
    /// The secret before a rotation (`startLinks.previousSecretFile`): links it signed still work until they expire.
    public var previousSecret: String?
    /// Which of ``allowableParameters`` a link may carry (default none).
    public var allowedParameters: [String] = []
    /// The longest a link may be valid: its `exp` at most this far ahead (default 600 s).
    public var maximumLifetimeSeconds = 600

    /// Whether links are served.
    public var enabled: Bool { secret != nil }

    /// Creates the default (off) settings.
    public init() {}
}
