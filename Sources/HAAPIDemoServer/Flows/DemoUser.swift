/// A demo account and the steps it goes through after its password.
struct DemoUser: Sendable {
    /// What follows a correct password.
    enum SecondStep: Sendable {
        /// A notice step (demo/demo): redirection-step, notice with a continue-same-step action.
        case notice
        /// An emailed one-time code (otp/otp).
        case emailCode
        /// Approval on another device, by polling (poll/poll).
        case approval
        /// Straight to the consent step (consent/consent).
        case consent
    }

    let username: String
    let password: String
    let email: String
    let name: String
    let secondStep: SecondStep

    static let all: [DemoUser] = [
        DemoUser(username: "demo", password: "demo", email: "demo@example.com", name: "Demo User", secondStep: .notice),
        DemoUser(username: "otp", password: "otp", email: "otp@example.com", name: "One-Time Code User", secondStep: .emailCode),
        DemoUser(username: "poll", password: "poll", email: "poll@example.com", name: "Polling User", secondStep: .approval),
        DemoUser(username: "consent", password: "consent", email: "consent@example.com", name: "Consent User", secondStep: .consent),
    ]

    static func named(_ username: String) -> DemoUser? { all.first { $0.username == username } }

    /// The email address with the local part masked, as Curity shows recipients.
    var maskedEmail: String {
        guard let at = email.firstIndex(of: "@") else { return "xxxx" }
        return String(email.prefix(1)) + String(repeating: "x", count: max(1, email.distance(from: email.startIndex, to: at) - 1)) + email[at...]
    }
}
