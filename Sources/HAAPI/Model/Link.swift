/// A link of a step or problem (forgot password, restart, a QR code image, the authorization response).
public struct Link: Sendable, Hashable {
    /// The target, possibly relative, possibly a `data:` URI for images.
    public let href: String
    /// The relation, e.g. `restart`, `activation`, `authorization-response`.
    public let rel: String
    /// A human-readable title.
    public let title: String?
    /// The media type of the target, e.g. `image/png`.
    public let type: String?
    /// The link as received.
    public let raw: JSONValue

    /// Creates a link.
    /// - Parameters:
    ///   - href: The target.
    ///   - rel: The relation.
    ///   - title: An optional title.
    ///   - type: An optional media type.
    ///   - raw: The raw JSON; built from the other members when omitted.
    public init(href: String, rel: String, title: String? = nil, type: String? = nil, raw: JSONValue? = nil) {
        self.href = href
        self.rel = rel
        self.title = title
        self.type = type
        if let raw {
            self.raw = raw
        } else {
            var members: [String: JSONValue] = ["href": .string(href), "rel": .string(rel)]
            if let title { members["title"] = .string(title) }
            if let type { members["type"] = .string(type) }
            self.raw = .object(members)
        }
    }

    /// Whether this link is an inline image (`data:` URI, or an `image/*` type) to show, never to follow.
    public var isImage: Bool {
        href.lowercased().hasPrefix("data:") || (type?.lowercased().hasPrefix("image/") ?? false)
    }
}
