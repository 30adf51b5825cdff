/// A text on a page: the gateway's own (looked up in the request's language when the page is rendered), or the
/// upstream's (shown as sent).
enum PageText: Sendable, Equatable, Codable {
    /// A catalogue text with `{name}` placeholders filled from `arguments`.
    case gateway(MessageKey, arguments: [String: String] = [:])
    /// Text from the HAAPI server.
    case upstream(String)
}
