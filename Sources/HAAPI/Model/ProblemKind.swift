/// The problem types Curity's SDKs know (notes 3.9; [UIKIT] `HAAPI_PROBLEM_STEPS`, [IOSPT]); any other type is
/// ``other(_:)``.
public enum ProblemKind: Sendable, Hashable {
    /// `invalid-input`: form validation failed; the step stays, with `invalidFields`.
    case invalidInput
    /// `incorrect-credentials`: the step stays, with the messages.
    case incorrectCredentials
    /// `authentication-failed`: an input error; the step stays so the person can retry.
    case authenticationFailed
    /// `too-many-attempts`: an input error; the step stays (the server decides when to stop).
    case tooManyAttempts
    /// `error-authorization-response`: the flow ended with an OAuth error (`error`, `error_description`, `iss`).
    case errorAuthorizationResponse
    /// `mismatch-between-session-and-access-token`: the flow's session no longer matches the HAAPI token and key (for
    /// example it timed out); start over.
    case sessionAndTokenMismatch
    /// `generic-user-error`: an error to show; the flow is over.
    case genericUserError
    /// `unexpected`: a generic failure; the flow is over.
    case unexpected
    /// Any other problem type URI: shown with its title, messages and links; the flow is over.
    case other(String)

    public init(type: String) {
        switch type {
        case "https://curity.se/problems/invalid-input": self = .invalidInput
        case "https://curity.se/problems/incorrect-credentials": self = .incorrectCredentials
        case "https://curity.se/problems/authentication-failed": self = .authenticationFailed
        case "https://curity.se/problems/too-many-attempts": self = .tooManyAttempts
        case "https://curity.se/problems/error-authorization-response": self = .errorAuthorizationResponse
        case "https://curity.se/problems/mismatch-between-session-and-access-token": self = .sessionAndTokenMismatch
        case "https://curity.se/problems/generic-user-error": self = .genericUserError
        case "https://curity.se/problems/unexpected": self = .unexpected
        default: self = .other(type)
        }
    }

    /// Whether the problem leaves the previous step valid: re-render it with the problem's messages and field errors
    /// ([UIKIT] `formatErrorStepData`: these four are input errors, every other problem an application error).
    public var isInputProblem: Bool {
        switch self {
        case .invalidInput, .incorrectCredentials, .authenticationFailed, .tooManyAttempts: true
        default: false
        }
    }
}
