extension HAAPIError {
    /// A ``Code/malformedResponse`` error.
    /// - Parameters:
    ///   - message: What is wrong (no body content).
    ///   - status: The HTTP status, if known.
    ///   - contentType: The content type, if known.
    static func malformed(_ message: String, status: Int? = nil, contentType: String? = nil) -> HAAPIError {
        HAAPIError(.malformedResponse, message, status: status, contentType: contentType)
    }
}
