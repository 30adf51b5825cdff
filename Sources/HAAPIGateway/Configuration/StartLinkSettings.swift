/// Signed start links (`/start?…&exp=…&sig=…`): an application starts a sign-in for one screen or user with its own
/// reference and per-sign-in authorize parameters, signed with HMAC-SHA256 under a shared secret. Off unless
/// `startLinks.secretFile` is set. Printed (`description`, `debugDescription`, `dump`), it shows no secret.
public struct StartLinkSettings: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
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

    /// The settings with the secrets redacted.
    public var description: String {
        "StartLinkSettings(secret: \(secret == nil ? "none" : SecretRedaction.marker), previousSecret: \(previousSecret == nil ? "none" : SecretRedaction.marker), allowedParameters: \(allowedParameters), maximumLifetimeSeconds: \(maximumLifetimeSeconds))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The members that are not secret, so that `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["enabled": enabled, "allowedParameters": allowedParameters, "maximumLifetimeSeconds": maximumLifetimeSeconds],
            displayStyle: .struct
        )
    }
}
