import Foundation
import HAAPI
import HAAPIGateway

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
    /// - Throws: ``ProxyRefusal`` (400) for a target that is not a path (`*`, an absolute URL, an authority); whose
    ///   path has a `.` or `..` segment, also percent-encoded or after a backslash, which a server could resolve to
    ///   outside the base path; or whose path has a percent-escape that does not decode to UTF-8 text (`%ff`, `%c3%28`,
    ///   `%c0%ae`, a malformed `%zz`). Foundation's `URL` has no `path` for such bytes, and the HTTP client writes the
    ///   request line from it: it would send `/` (the origin's root, with the token) instead of the path checked here.
    ///   Refusing sends nothing; passing the bytes on as they are would mean writing the request line past the client.
    ///   Such a path names nothing an API serves (RFC 3986 §2.5: text in a URI is UTF-8).
    public func url(for requestTarget: String) throws(ProxyRefusal) -> URL {
        guard requestTarget.hasPrefix("/") else {
            throw ProxyRefusal(status: 400, "only a path (/…) is forwarded, and only to \(origin)\(basePath)")
        }
        let path = requestTarget.prefix { $0 != "?" && $0 != "#" }
        guard !requestTarget.contains("#") else { throw ProxyRefusal(status: 400, "a request target has no fragment (#)") }
        if let segment = Self.dotSegment(in: path) {
            throw ProxyRefusal(status: 400, "the path has a \(segment) segment, which could leave \(origin)\(basePath)/: refused")
        }
        guard String(path).removingPercentEncoding != nil else {
            throw ProxyRefusal(
                status: 400,
                "the path has a percent-escape that is not UTF-8 text (such as %ff): it cannot be sent as it is, so nothing is sent"
            )
        }
        guard let url = URL(string: origin + basePath + requestTarget), OriginGuard.origin(of: url) == OriginGuard.origin(of: originURL),
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath.hasPrefix(basePath + "/") == true
        else { throw ProxyRefusal(status: 400, "the request target is not a path under \(origin)\(basePath)/") }
        return url
    }

    /// The request-target the HTTP client (AsyncHTTPClient) writes in the request line for `url`, by its rule: the
    /// percent-encoded path as it stands in the URL, or `/` when Foundation's decoded `path` is empty (what a
    /// percent-escape that is not UTF-8 makes, refused by ``url(for:)``), then `?` and the query. The proxy's log line
    /// names this: what was sent, not what was asked.
    /// - Parameter url: A URL ``url(for:)`` made.
    public static func requestTarget(of url: URL) -> String {
        let path = url.path.isEmpty ? "/" : URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return path + (url.query.map { "?" + $0 } ?? "")
    }

    /// The origin as a URL.
    private var originURL: URL { URL(string: origin) ?? URL(fileURLWithPath: "/") }

    /// The first `.` or `..` segment of `path`, percent-decoded (`%2e`, `%3b`), with `%2f`, `%5c` and `\` taken as
    /// separators too, as some servers take them, and a segment's `;parameters` left out (`..;x`), as servlet containers
    /// leave them out before resolving it; nil when there is none.
    static func dotSegment(in path: some StringProtocol) -> String? {
        var decoded = path.lowercased()
        for (encoded, plain) in [("%2e", "."), ("%2f", "/"), ("%5c", "/"), ("\\", "/"), ("%3b", ";")] {
            decoded = decoded.replacingOccurrences(of: encoded, with: plain)
        }
        return decoded.split(separator: "/", omittingEmptySubsequences: false).first { segment in
            let name = segment.prefix { $0 != ";" }
            return name == "." || name == ".."
        }.map(String.init)
    }
}
