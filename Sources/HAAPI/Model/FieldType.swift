import Foundation

/// The `type` of a form field: the seven HAAPI types plus any other string, preserved.
public enum FieldType: Sendable, Hashable {
    /// Not shown; always submitted with its value.
    case hidden
    /// Free text (see ``Field/textKind``).
    case text
    /// A username.
    case username
    /// A password.
    case password
    /// A choice among ``Field/options``.
    case select
    /// A checkbox.
    case checkbox
    /// Filled by the client from a client operation's result.
    case context
    /// Any other type, as received.
    case other(String)

    /// Classifies a type string.
    /// - Parameter rawValue: The `type` member.
    public init(rawValue: String) {
        switch rawValue.trimmingWhitespace {
        case "hidden": self = .hidden
        case "text": self = .text
        case "username": self = .username
        case "password": self = .password
        case "select": self = .select
        case "checkbox": self = .checkbox
        case "context": self = .context
        default: self = .other(rawValue)
        }
    }

    /// The type as a string.
    public var rawValue: String {
        switch self {
        case .hidden: "hidden"
        case .text: "text"
        case .username: "username"
        case .password: "password"
        case .select: "select"
        case .checkbox: "checkbox"
        case .context: "context"
        case .other(let value): value
        }
    }
}
