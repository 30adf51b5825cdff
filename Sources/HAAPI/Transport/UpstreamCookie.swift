import Foundation

/// One cookie an upstream set for a flow, as stored by ``UpstreamCookieJar`` (RFC 6265 §5.3).
struct UpstreamCookie: Sendable, Hashable {
    let name: String
    let value: String
    /// The host (host-only cookies) or the `Domain` attribute without its leading dot, lowercased.
    let domain: String
    /// Whether the cookie goes only to exactly ``domain`` (no `Domain` attribute was given).
    let hostOnly: Bool
    let path: String
    /// Whether the cookie goes only over `https`.
    let secure: Bool
    /// When the cookie expires; nil for a session cookie (kept for the flow's life).
    let expires: Date?
    /// Insertion order, for the RFC 6265 §5.4 ordering of cookies with paths of equal length.
    var created: Int

    func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// Whether the cookie is sent on a request to `url` (RFC 6265 §5.4: domain-match, path-match, secure).
    func matches(_ url: URL, now: Date) -> Bool {
        guard !isExpired(at: now), let host = url.host?.lowercased() else { return false }
        if secure, url.scheme?.lowercased() != "https" { return false }
        guard hostOnly ? host == domain : Self.domainMatches(host: host, domain: domain) else { return false }
        return Self.pathMatches(requestPath: url.path.isEmpty ? "/" : url.path, cookiePath: path)
    }

    /// RFC 6265 §5.1.3: the host equals the domain, or ends with `.domain` and is not an IP address.
    static func domainMatches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        return host.hasSuffix("." + domain) && !isIPAddress(host)
    }

    /// RFC 6265 §5.1.4: equal, or the cookie path is a prefix ending at a `/` of the request path.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// RFC 6265 §5.1.4: the default path of a cookie set by a response to `url`.
    static func defaultPath(of url: URL) -> String {
        let path = url.path
        guard path.hasPrefix("/"), let lastSlash = path.lastIndex(of: "/"), lastSlash != path.startIndex else { return "/" }
        return String(path[..<lastSlash])
    }

    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":")
            || (!host.isEmpty && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
    }
}
