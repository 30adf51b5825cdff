/// An OAuth error response (RFC 6749 §5.2): a value, not a thrown error.
public struct OAuthErrorResponse: Sendable, Hashable, Codable {
    /// The error code, e.g. `invalid_grant`.
    public let error: String
    /// The description, if sent.
    public let errorDescription: String?
    /// The error URI, if sent.
    public let errorURI: String?
    /// The HTTP status of the answer.
    public let httpStatus: Int

    /// Creates an error response.
    /// - Parameters:
    ///   - error: The error code.
    ///   - errorDescription: The description.
    ///   - errorURI: The URI.
    ///   - httpStatus: The HTTP status.
    public init(error: String, errorDescription: String?, errorURI: String?, httpStatus: Int) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.httpStatus = httpStatus
    }
}
