/// Where a sign-in session stands.
enum SessionPhase: Sendable, Equatable, Codable {
    /// `login` mode: waiting for the person to confirm that the code matches their terminal; no flow has started.
    case confirming(code: String, hostName: String)
    /// Showing a step.
    case step
    /// The code was exchanged and the outcome handed to the sinks; tokens are gone.
    case signedIn
    /// The upstream ended the sign-in with a problem (message safe to show).
    case failed(PageText)
    /// The person cancelled.
    case cancelled

    /// Whether the sign-in has ended (signed in, failed or cancelled): nothing more happens to it but its final page.
    var hasEnded: Bool {
        switch self {
        case .signedIn, .failed, .cancelled: true
        case .step, .confirming: false
        }
    }
}
