/// What names the sign-in an outcome belongs to, so that an application can match it: ``id`` is unique per sign-in and
/// is the `flow` id of every log line of that sign-in, so logs and outcomes join; ``starter`` names who started it when
/// that was a device or a signed start link.
///
/// Encoded flat into the outcome (`"signInId"`, `"starter"`).
public struct SignInReference: Sendable, Equatable {
    /// The sign-in's id: 128 random bits, base64url (22 characters).
    public let id: String
    /// Who started the sign-in, when a device (the device authorization grant) or a signed start link did.
    public let starter: SignInStarter?

    /// Creates a reference.
    /// - Parameters:
    ///   - id: The sign-in's id.
    ///   - starter: Who started the sign-in, if not a browser opening the gateway.
    public init(id: String, starter: SignInStarter? = nil) {
        self.id = id
        self.starter = starter
    }
}
