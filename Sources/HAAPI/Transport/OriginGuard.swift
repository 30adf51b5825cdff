import Foundation

/// Resolves hrefs against the upstream base URL and refuses any other origin (SSRF guard).
public struct OriginGuard: Sendable {
    /// The allowed origin's base URL.
    public let baseURL: URL
    private let allowedOrigin: String
    /// The allowed origin, `scheme://host:port`.
    public var origin: String { allowedOrigin }

    /// Creates a guard for `baseURL`'s origin.
    /// - Parameter baseURL: The upstream base URL.
    public init(baseURL: URL) {
        self.baseURL = baseURL
        self.allowedOrigin = OriginGuard.origin(of: baseURL)
    }

    /// Resolves `href` (RFC 3986) and checks that it is http(s) on the allowed origin.
    /// - Parameter href: An href from a representation.
    /// - Returns: The absolute URL to call.
    /// - Throws: ``HAAPIError/Code/offOriginHref`` otherwise (the href itself is not put in the message).
    public func resolve(_ href: String) throws(HAAPIError) -> URL {
        let trimmed = href.trimmingWhitespace
        guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: baseURL)?.absoluteURL else {
            throw HAAPIError(.offOriginHref, "the href cannot be resolved against the upstream base URL")
        }
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw HAAPIError(.offOriginHref, "the href uses the scheme '\(scheme.prefix(20))', which is never fetched")
        }
        let origin = OriginGuard.origin(of: url)
        guard origin == allowedOrigin else {
            throw HAAPIError(.offOriginHref, "the href points to \(origin), outside the upstream origin \(allowedOrigin)")
        }
        return url
    }

    /// `scheme://host:port` of `url`, lower-cased, with the default port made explicit.
    /// - Parameter url: An absolute URL.
    public static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let host = url.host?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
