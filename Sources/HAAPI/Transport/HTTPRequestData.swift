import Foundation

/// An HTTP request as the library sends it through a ``HAAPITransport``.
public struct HTTPRequestData: Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields in order; names are case-insensitive.
    public var headers: [(name: String, value: String)]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The URL.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive).
    /// - Parameter name: The header name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
