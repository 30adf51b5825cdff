/// Why `haapi-gateway proxy` answers a request itself instead of forwarding it: an HTTP status and one short line for
/// the client (plain text, `haapi-gateway proxy: …`) and the request log. Never holds a token.
public struct ProxyRefusal: Error, Sendable, Equatable {
    /// The status the client gets: 4xx for a request the proxy will not forward, 502 for a target that failed, 503 when
    /// there is no token to add.
    public let status: Int
    /// One line saying why, without a token.
    public let message: String

    public init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The body of the answer: the line, with the command's name.
    public var body: String { "haapi-gateway proxy: \(message)\n" }
}
