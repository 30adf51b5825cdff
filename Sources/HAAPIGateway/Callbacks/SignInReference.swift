/// What names the sign-in an outcome belongs to, so that an application can match it: ``id`` is unique per sign-in and
/// is the `flow` id of every log line of that sign-in, so logs and outcomes join.
///
/// Encoded flat into the outcome (`"signInId"`). A `starter` (how a sign-in was started: a device code, a signed start
/// link) is to join it here, so that every outcome of such a sign-in carries it too.
public struct SignInReference: Sendable, Equatable {
    /// The sign-in's id: 128 random bits, base64url (22 characters).
    public let id: String

    /// Creates a reference.
    /// - Parameter id: The sign-in's id.
    public init(id: String) {
        self.id = id
    }
}
