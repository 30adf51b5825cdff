/// Sends one HTTP request and returns its whole response: the seam between the HAAPI logic and the network.
///
/// Implementations must honour `timeout` for the whole exchange, cap the body at `maxBodyBytes`, and throw
/// ``HAAPIError`` with ``HAAPIError/Code/timeout``, ``HAAPIError/Code/transport`` or
/// ``HAAPIError/Code/malformedResponse`` (body too large or truncated). Other errors are mapped to `transport`.
public protocol HAAPITransport: Sendable {
    /// Sends `request`.
    /// - Parameters:
    ///   - request: The request.
    ///   - timeout: The limit for the whole exchange.
    ///   - maxBodyBytes: The largest accepted response body.
    func send(_ request: HTTPRequestData, timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponseData

    /// Releases resources (connection pools). Called by ``HAAPIClient/shutdown()``.
    func shutdown() async throws
}

extension HAAPITransport {
    /// Does nothing.
    public func shutdown() async throws {}
}
