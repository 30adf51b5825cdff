/// A WebAuthn assertion whose signature verified: which passkey signed and its new signature counter.
struct VerifiedAssertion: Sendable {
    let credentialID: [UInt8]
    let signCount: UInt32
    let userVerified: Bool
}
