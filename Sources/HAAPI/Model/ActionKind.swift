import Foundation

/// The `kind` of an action: an open set of known values plus any string the server sends.
///
/// Values are trimmed of surrounding whitespace (a Curity docs sample sends `" redirect"`).
public struct ActionKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The kind as a trimmed string.
    public let rawValue: String

    /// Creates a kind, trimming whitespace.
    /// - Parameter rawValue: The kind string.
    public init(rawValue: String) {
        self.rawValue = rawValue.trimmingWhitespace
    }

    /// Creates a kind from a literal.
    /// - Parameter value: The kind string.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// The kind string.
    public var description: String { rawValue }

    /// `login`
    public static let login: ActionKind = "login"
    /// `continue`
    public static let `continue`: ActionKind = "continue"
    /// `cancel`
    public static let cancel: ActionKind = "cancel"
    /// `redirect`
    public static let redirect: ActionKind = "redirect"
    /// `poll`
    public static let poll: ActionKind = "poll"
    /// `authenticator-selector`
    public static let authenticatorSelector: ActionKind = "authenticator-selector"
    /// `select-authenticator`
    public static let selectAuthenticator: ActionKind = "select-authenticator"
    /// `device-selector`
    public static let deviceSelector: ActionKind = "device-selector"
    /// `device-option`
    public static let deviceOption: ActionKind = "device-option"
    /// `device-register`
    public static let deviceRegister: ActionKind = "device-register"
    /// `user-register`
    public static let userRegister: ActionKind = "user-register"
    /// `user-consent`
    public static let userConsent: ActionKind = "user-consent"
    /// `password-reset`
    public static let passwordReset: ActionKind = "password-reset"
    /// `bankid-same-device`
    public static let bankIDSameDevice: ActionKind = "bankid-same-device"
    /// `bankid-other-device`
    public static let bankIDOtherDevice: ActionKind = "bankid-other-device"
    /// `continue-auto-login`
    public static let continueAutoLogin: ActionKind = "continue-auto-login"
    /// `external-browser`
    public static let externalBrowser: ActionKind = "external-browser"

    /// Every kind seen in Curity samples; other values are equally valid.
    public static let known: [ActionKind] = [
        .login, .continue, .cancel, .redirect, .poll, .authenticatorSelector, .selectAuthenticator, .deviceSelector,
        .deviceOption, .deviceRegister, .userRegister, .userConsent, .passwordReset, .bankIDSameDevice,
        .bankIDOtherDevice, .continueAutoLogin, .externalBrowser,
    ]

    /// Whether this kind is one of ``known``.
    public var isKnown: Bool { Self.known.contains(self) }
}
