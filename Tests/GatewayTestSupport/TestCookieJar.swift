import Foundation

/// The tests' cookie jar: keeps `Set-Cookie` name=value pairs with their `Path` and sends back, in one `Cookie` header
/// (RFC 6265 §5.4), those whose path matches the request's (RFC 6265 §5.1.4). A cookie set empty or with `Max-Age` of 0
/// or less is removed (§5.2.2). Host and the other attributes are ignored: the requests of a test go to the one server
/// under test.
struct TestCookieJar: Sendable {
    private struct Cookie: Sendable {
        let name: String
        let value: String
        let path: String
    }

    private var cookies: [Cookie] = []

    /// Stores the cookies of `Set-Cookie` header values.
    mutating func store(setCookie headers: [String]) {
        for header in headers {
            let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            let path = parts.dropFirst().first { $0.lowercased().hasPrefix("path=") }.map { String($0.dropFirst(5)) } ?? "/"
            let maxAge = parts.dropFirst().first { $0.lowercased().hasPrefix("max-age=") }.flatMap { Int($0.dropFirst(8)) }
            cookies.removeAll { $0.name == name && $0.path == path }
            if !value.isEmpty, (maxAge ?? 1) > 0 { cookies.append(Cookie(name: name, value: value, path: path)) }
        }
    }

    /// Puts a cookie in the jar by hand (another tab of the same browser, or a cookie copied from elsewhere).
    mutating func set(_ name: String, _ value: String, path: String = "/") {
        cookies.removeAll { $0.name == name && $0.path == path }
        cookies.append(Cookie(name: name, value: value, path: path))
    }

    /// The `Cookie` header value for a request to `url`, or nil when no cookie applies.
    func header(for url: String) -> String? {
        let path = URLComponents(string: url)?.path ?? "/"
        let matching = cookies.filter { Self.pathMatches(requestPath: path.isEmpty ? "/" : path, cookiePath: $0.path) }
        return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The value of the cookie named `name`, whatever its path.
    func value(of name: String) -> String? { cookies.first { $0.name == name }?.value }

    /// Every cookie's value by name (the last set wins where paths differ).
    var values: [String: String] { Dictionary(cookies.map { ($0.name, $0.value) }) { _, last in last } }

    /// RFC 6265 §5.1.4 path-match.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath == cookiePath || cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }
}
