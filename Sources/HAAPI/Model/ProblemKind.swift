/// The kind of a HAAPI problem, from its `type` URI.
public enum ProblemKind: Sendable, Hashable {
    /// `https://curity.se/problems/invalid-input`: redisplay the form with ``Problem/invalidFields``.
    case invalidInput
    /// `https://curity.se/problems/incorrect-credentials`: redisplay the form.
    case incorrectCredentials
    /// `https://curity.se/problems/authorization`: an OAuth error; the flow is over.
    case authorization
    /// `https://curity.se/problems/unexpected`.
    case unexpected
    /// Any other problem type, handled generically.
    case other(String)

    /// Classifies a problem type URI.
    /// - Parameter type: The `type` member.
    public init(type: String) {
        switch type {
        case "https://curity.se/problems/invalid-input": self = .invalidInput
        case "https://curity.se/problems/incorrect-credentials": self = .incorrectCredentials
        case "https://curity.se/problems/authorization": self = .authorization
        case "https://curity.se/problems/unexpected": self = .unexpected
        default: self = .other(type)
        }
    }
}
