/// Why a WebAuthn response was refused; the detail is shown to the client in an `invalid-input` problem on the
/// `credential` field and names the check that failed, never key material.
struct WebAuthnRejection: Error, Sendable, Equatable {
    let detail: String

    init(_ detail: String) {
        self.detail = detail
    }

    /// The `invalid-input` problem for this rejection.
    var problem: Problem {
        .invalidInput([.init(name: "credential", reason: "invalidValue", detail: "The passkey was not accepted: \(detail).")])
    }
}
