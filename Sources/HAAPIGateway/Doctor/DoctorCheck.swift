/// One thing `haapi-gateway doctor` looked at: what it found, and for a failure what to change at the Curity side (or in
/// the gateway's configuration), named as Curity names it (``CuritySetting``).
public struct DoctorCheck: Sendable, Equatable, Codable {
    /// How a check ended.
    public enum Result: String, Sendable, Codable {
        /// As it must be.
        case passed
        /// Blocks every sign-in: ``fix`` says what to change.
        case failed
        /// Sign-ins can start, but something will not work as it should (an ID-token algorithm the gateway cannot
        /// validate, say): ``fix`` says what to change.
        case warning
        /// What was seen where nothing can pass or fail (whether the server sent DPoP nonces), or something to do that
        /// cannot be checked from here (the external-browser return URL to register).
        case note
    }

    /// A stable name (`discovery`, `client-authentication`, …), for scripts reading `--json`.
    public let name: String
    /// How it ended.
    public let result: Result
    /// What was found (never a secret; upstream text is quoted as sent, bounded).
    public let found: String
    /// What to change, for a failure or a warning (or what to do, for a note).
    public let fix: String?

    /// The line printed for it: a mark, the name, what was found, and the fix.
    public var line: String {
        let mark =
            switch result {
            case .passed: "✓"
            case .failed: "✗"
            case .warning: "!"
            case .note: "→"
            }
        return "\(mark) \(name): \(found)" + (fix.map { (result == .note ? " To do: " : " Fix: ") + $0 } ?? "")
    }

    static func passed(_ name: String, _ found: String) -> DoctorCheck { DoctorCheck(name: name, result: .passed, found: found, fix: nil) }
    static func failed(_ name: String, _ found: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, result: .failed, found: found, fix: fix)
    }
    static func warning(_ name: String, _ found: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, result: .warning, found: found, fix: fix)
    }
    static func note(_ name: String, _ found: String, fix: String? = nil) -> DoctorCheck {
        DoctorCheck(name: name, result: .note, found: found, fix: fix)
    }
}
