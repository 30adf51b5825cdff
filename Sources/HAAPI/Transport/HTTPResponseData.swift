import Foundation

/// An HTTP response as a ``HAAPITransport`` returns it (body already collected and size-capped).
public struct HTTPResponseData: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields in order; names are case-insensitive.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive).
    /// - Parameter name: The header name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
