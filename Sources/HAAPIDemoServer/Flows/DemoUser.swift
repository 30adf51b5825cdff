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
        /// A code by SMS: a send form whose `continueActions` hold the code form (sms/sms).
        case smsCode
    }

    let username: String
    let password: String
    let email: String
    let name: String
    let secondStep: SecondStep
    /// The phone number codes are "texted" to (the demo outbox), for ``SecondStep/smsCode``.
    var phone: String? = nil
    /// A locked account: the right password answers `authentication-failed`.
    var isLocked = false

    static let all: [DemoUser] = [
        DemoUser(username: "demo", password: "demo", email: "demo@example.com", name: "Demo User", secondStep: .notice),
        DemoUser(username: "otp", password: "otp", email: "otp@example.com", name: "One-Time Code User", secondStep: .emailCode),
        DemoUser(username: "poll", password: "poll", email: "poll@example.com", name: "Polling User", secondStep: .approval),
        DemoUser(username: "consent", password: "consent", email: "consent@example.com", name: "Consent User", secondStep: .consent),
        DemoUser(
            username: "sms",
            password: "sms",
            email: "sms@example.com",
            name: "SMS Code User",
            secondStep: .smsCode,
            phone: "+46 70 123 45 12"
        ),
        DemoUser(username: "locked", password: "locked", email: "locked@example.com", name: "Locked User", secondStep: .notice, isLocked: true),
    ]

    static func named(_ username: String) -> DemoUser? { all.first { $0.username == username } }

    /// The phone number with all but the country code, the first group and the last two digits masked, as Curity
    /// shows recipients (`+46 70 *** ** 12`).
    var maskedPhone: String {
        guard let phone else { return "" }
        let groups = phone.split(separator: " ")
        guard groups.count > 2 else { return String(repeating: "*", count: max(0, phone.count - 2)) + phone.suffix(2) }
        let masked = groups.dropFirst(2).enumerated().map { index, group in
            index == groups.count - 3 ? String(group) : String(repeating: "*", count: group.count)
        }
        return (groups.prefix(2).map(String.init) + masked).joined(separator: " ")
    }

    /// The email address with the local part masked, as Curity shows recipients.
    var maskedEmail: String {
        guard let at = email.firstIndex(of: "@") else { return "xxxx" }
        return String(email.prefix(1)) + String(repeating: "x", count: max(1, email.distance(from: email.startIndex, to: at) - 1)) + email[at...]
    }
}
