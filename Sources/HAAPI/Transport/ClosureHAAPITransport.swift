/// A transport that answers with a closure: for unit tests and custom stacks.
public struct ClosureHAAPITransport: HAAPITransport {
    private let handler: @Sendable (HTTPRequestData) async throws -> HTTPResponseData

    /// Creates a transport.
    /// - Parameter handler: Returns the response for a request.
    public init(_ handler: @escaping @Sendable (HTTPRequestData) async throws -> HTTPResponseData) {
        self.handler = handler
    }

    /// Calls the closure; enforces `maxBodyBytes`.
    /// - Parameters:
    ///   - request: The request.
    ///   - timeout: Not enforced.
    ///   - maxBodyBytes: The largest accepted body.
    public func send(_ request: HTTPRequestData, timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponseData {
        let response = try await handler(request)
        guard response.body.count <= maxBodyBytes else {
            throw HAAPIError.malformed(
                "the response body exceeds \(maxBodyBytes) bytes",
                status: response.status,
                contentType: response.header("Content-Type")
            )
        }
        return response
    }
}
