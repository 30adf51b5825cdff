/// The OAuth error (RFC 6749 §5.2) the demo server answers every authorization-code exchange with, as a broken or hostile
/// token endpoint would: its texts are sent as given, a line feed or an escape character included, so that a client can
/// be shown to log and show them safely. Never set in a demo meant for people.
public struct DemoCodeExchangeRefusal: Sendable, Equatable {
    /// The `error` member.
    public var error: String
    /// The `error_description` member.
    public var errorDescription: String

    /// Creates a refusal.
    /// - Parameters:
    ///   - error: The `error` member.
    ///   - errorDescription: The `error_description` member.
    public init(error: String, errorDescription: String) {
        self.error = error
        self.errorDescription = errorDescription
    }
}
