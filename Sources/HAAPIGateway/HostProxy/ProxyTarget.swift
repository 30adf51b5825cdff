import Foundation
import HAAPI

/// The one place `haapi-gateway proxy` forwards to (`--to`): an origin (`https://api.example.com`, or plain http to a
/// loopback address) and an optional base path (`https://api.example.com/v1`). Each request's target is put under it,
/// and a request that could reach anything else (another origin, a path outside the base path) is refused: the token of
/// this host's sign-in goes to this origin only.
public struct ProxyTarget: Sendable, Equatable {
    /// `scheme://host[:port]` as given (lower-cased scheme and host), without a path.
    public let origin: String
    /// The base path without a trailing `/` (empty for the origin's root), percent-encoded as given.
    public let basePath: String

    /// Reads `--to`.
    /// - Throws: ``GatewayError`` (`configuration`) naming what is wrong: not an absolute http(s) URL, a query, fragment
    ///   or user info, or plain http to anything but a loopback address (the token would cross the network readable).
    public init(_ text: String) throws(GatewayError) {
        let shown = SecretRedaction.redactingURLPasswords(in: LogText.untrusted(text))
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = components.host?.lowercased(), !host.isEmpty
        else { throw GatewayError(.configuration, "--to \(shown) is not an absolute http(s) URL (https://api.example.com)") }
        guard components.query == nil, components.fragment == nil, components.user == nil, components.password == nil else {
            throw GatewayError(.configuration, "--to \(shown) must not have a query, a fragment or user info: it names an origin and a base path")
        }
        guard scheme == "https" || ProxyListenAddress.isLoopback(host) else {
            throw GatewayError(
                .configuration,
                "--to \(shown) must use https (plain http only to a loopback address): the access token crosses the network with every request"
            )
        }
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        origin = "\(scheme)://\(hostPart)" + (components.port.map { ":\($0)" } ?? "")
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
        guard Self.dotSegment(in: basePath) == nil else {
            throw GatewayError(.configuration, "--to \(shown) has a . or .. segment in its path")
        }
    }

    /// The URL a request is forwarded to: the base path, then the request's path and query.
    /// - Parameter requestTarget: The request-target as the client sent it, in origin form (`/path?query`).
    /// - Throws: ``ProxyRefusal`` (400) for a target that is not a path (`*`, an absolute URL, an authority) or whose
    ///   path has a `.` or `..` segment, also percent-encoded or after a backslash, which a server could resolve to
    ///   outside the base path.
    public func url(for requestTarget: String) throws(ProxyRefusal) -> URL {
        guard requestTarget.hasPrefix("/") else {
            throw ProxyRefusal(status: 400, "only a path (/…) is forwarded, and only to \(origin)\(basePath)")
        }
        let path = requestTarget.prefix { $0 != "?" && $0 != "#" }
        guard !requestTarget.contains("#") else { throw ProxyRefusal(status: 400, "a request target has no fragment (#)") }
        if let segment = Self.dotSegment(in: path) {
            throw ProxyRefusal(status: 400, "the path has a \(segment) segment, which could leave \(origin)\(basePath)/: refused")
        }
        guard let url = URL(string: origin + basePath + requestTarget), OriginGuard.origin(of: url) == OriginGuard.origin(of: originURL),
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath.hasPrefix(basePath + "/") == true
        else { throw ProxyRefusal(status: 400, "the request target is not a path under \(origin)\(basePath)/") }
        return url
    }

    /// The origin as a URL.
    private var originURL: URL { URL(string: origin) ?? URL(fileURLWithPath: "/") }

    /// The first `.` or `..` segment of `path`, percent-decoded (`%2e`), with `%2f`, `%5c` and `\` taken as separators
    /// too, as some servers take them; nil when there is none.
    static func dotSegment(in path: some StringProtocol) -> String? {
        var decoded = path.lowercased()
        for (encoded, plain) in [("%2e", "."), ("%2f", "/"), ("%5c", "/"), ("\\", "/")] {
            decoded = decoded.replacingOccurrences(of: encoded, with: plain)
        }
        return decoded.split(separator: "/", omittingEmptySubsequences: false).first { $0 == "." || $0 == ".." }.map(String.init)
    }
}
