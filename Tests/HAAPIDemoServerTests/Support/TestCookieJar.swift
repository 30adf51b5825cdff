import Foundation

/// The tests' cookie jar for one flow: keeps `Set-Cookie` name=value pairs with their `Path` and sends back, in one
/// `Cookie` header (RFC 6265 §5.4), those whose path matches the request's (RFC 6265 §5.1.4). Host, expiry and the
/// other attributes are ignored: every request of a test goes to the one demo server.
struct TestCookieJar: Sendable {
    private struct Cookie: Sendable {
        let name: String
        let value: String
        let path: String
    }

    private var cookies: [Cookie] = []

    /// Stores the cookies of every `Set-Cookie` header of a response.
    mutating func store(from response: TestResponse) {
        for (name, value) in response.headers where name.lowercased() == "set-cookie" {
            let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            let cookieName = String(pair[..<equals]), cookieValue = String(pair[pair.index(after: equals)...])
            let path = parts.dropFirst().first { $0.lowercased().hasPrefix("path=") }.map { String($0.dropFirst(5)) } ?? "/"
            cookies.removeAll { $0.name == cookieName && $0.path == path }
            cookies.append(Cookie(name: cookieName, value: cookieValue, path: path))
        }
    }

    /// The `Cookie` header value for a request to `url`, or nil when no cookie applies.
    func header(for url: String) -> String? {
        let path = URLComponents(string: url)?.path ?? "/"
        let matching = cookies.filter { Self.pathMatches(requestPath: path.isEmpty ? "/" : path, cookiePath: $0.path) }
        return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The value of the cookie named `name`, whatever its path.
    func value(of name: String) -> String? { cookies.first { $0.name == name }?.value }

    /// RFC 6265 §5.1.4 path-match.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath == cookiePath || cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }
}
