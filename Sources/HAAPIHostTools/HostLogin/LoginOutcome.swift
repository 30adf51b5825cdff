import HAAPI
import HAAPIGateway

/// How one `login` ended, in either mode: a local gateway for one sign-in, or a device authorization at a central
/// gateway (`--via`).
public enum LoginOutcome: Sendable, Equatable {
    /// Signed in: the tokens for the token file.
    case signedIn(OAuthTokens)
    /// The person cancelled the sign-in.
    case cancelled
    /// The sign-in failed or was denied: why (an OAuth error, a HAAPI problem or one of the gateway's own codes).
    case failed(CompletionOutcome.Failure)
    /// No sign-in in time: the sentence that says which time ran out and what to do.
    case timedOut(String)
    /// The command was stopped before the sign-in ended.
    case interrupted

    /// The outcome a local gateway reported to its callbacks.
    /// - Parameter outcome: The outcome of the one sign-in.
    public init(_ outcome: CompletionOutcome) {
        switch outcome.outcome {
        case "success":
            if let token = outcome.token {
                self = .signedIn(token)
            } else {
                self = .failed(CompletionOutcome.Failure(error: "no_tokens", errorDescription: "the sign-in returned no tokens"))
            }
        case "cancelled":
            self = .cancelled
        default:
            self = .failed(outcome.error ?? CompletionOutcome.Failure(error: ""))
        }
    }

    /// The outcome of polling for a device authorization.
    /// - Parameters:
    ///   - outcome: How polling ended.
    ///   - timeoutSeconds: The device's own limit, for the message when it ran out.
    public init(_ outcome: DevicePollOutcome, timeoutSeconds: Int) {
        switch outcome {
        case .signedIn(let tokens):
            self = .signedIn(tokens)
        case .denied(let error), .refused(let error):
            self = .failed(CompletionOutcome.Failure(error: error.error, errorDescription: error.errorDescription, errorUri: error.errorURI))
        case .expired:
            self = .timedOut("the code expired before the sign-in; run the command again for a new code")
        case .timedOut:
            self = .timedOut("no sign-in within \(timeoutSeconds) s; run the command again for a new code")
        case .failed(let error):
            self = .failed(CompletionOutcome.Failure(error: "gateway_failure", errorDescription: error.message))
        case .interrupted:
            self = .interrupted
        }
    }
}
