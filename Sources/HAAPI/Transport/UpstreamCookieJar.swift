import Foundation

/// The cookies an upstream set for one flow, kept by the gateway and sent back on that flow's requests, never to a
/// browser. A load balancer in front of a Curity cluster commonly pins a client to a node with such a cookie; Curity's
/// own clients work with and without a cookie jar (notes 2.3). Storage and matching follow RFC 6265 §5.2–5.4 for the
/// upstream's origin; `HttpOnly` and `SameSite` mean nothing to a server-side client and are ignored.
struct UpstreamCookieJar: Sendable {
    /// At most this many cookies per flow (RFC 6265 §6.1 asks for at least 50 per domain); the oldest go first.
    static let maximumCookies = 50
    /// Name and value together at most this many bytes (RFC 6265 §6.1); longer cookies are ignored.
    static let maximumCookieBytes = 4096

    private var cookies: [UpstreamCookie] = []
    private var counter = 0

    var isEmpty: Bool { cookies.isEmpty }

    /// An empty jar.
    init() {}

    /// A jar holding `cookies` as saved from ``storedCookies`` (a restored flow): later cookies are counted after them.
    init(restoring cookies: [UpstreamCookie]) {
        self.cookies = cookies
        self.counter = (cookies.map(\.created).max() ?? -1) + 1
    }

    /// The cookies held, expired ones included (they are never sent), in the order they were stored.
    var storedCookies: [UpstreamCookie] { cookies }

    /// Stores the cookies of every `Set-Cookie` value of a response to `url`.
    mutating func receive(_ setCookieValues: [String], from url: URL, now: Date = Date()) {
        for value in setCookieValues { receive(value, from: url, now: now) }
    }

    /// The `Cookie` header value for a request to `url`, or nil when no cookie matches (RFC 6265 §5.4: longer paths
    /// first, then older cookies first).
    func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        let matching = cookies.filter { $0.matches(url, now: now) }.sorted {
            $0.path.count != $1.path.count ? $0.path.count > $1.path.count : $0.created < $1.created
        }
        guard !matching.isEmpty else { return nil }
        return matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// RFC 6265 §5.2 (parsing) and §5.3 (storage) for one `Set-Cookie` value.
    private mutating func receive(_ header: String, from url: URL, now: Date) {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return }
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).map { String($0) }
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= Self.maximumCookieBytes,
            !(name + value).contains(where: { $0.isNewline || $0 == "\0" })
        else { return }

        var expires: Date?
        var maxAge: Date?
        var domainAttribute: String?
        var path: String?
        var secure = false
        for attribute in parts {
            let (key, attributeValue): (String, String)
            if let separator = attribute.firstIndex(of: "=") {
                key = attribute[..<separator].trimmingCharacters(in: .whitespaces).lowercased()
                attributeValue = attribute[attribute.index(after: separator)...].trimmingCharacters(in: .whitespaces)
            } else {
                key = attribute.trimmingCharacters(in: .whitespaces).lowercased()
                attributeValue = ""
            }
            switch key {
            case "expires": if let date = Self.parseDate(attributeValue) { expires = date }
            case "max-age":
                // §5.2.2: an integer, optionally negative; zero or less expires the cookie at once.
                guard let seconds = Int(attributeValue), attributeValue.first.map({ $0 == "-" || $0.isNumber }) == true else { continue }
                maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(min(seconds, 400 * 86_400)))
            case "domain":
                guard !attributeValue.isEmpty else { continue }
                domainAttribute = (attributeValue.hasPrefix(".") ? String(attributeValue.dropFirst()) : attributeValue).lowercased()
            case "path": path = attributeValue.hasPrefix("/") ? attributeValue : nil
            case "secure": secure = true
            default: continue
            }
        }

        // §5.3 step 6: a Domain attribute must domain-match the request host (else the whole cookie is ignored); without
        // one the cookie is host-only.
        let domain: String
        let hostOnly: Bool
        if let domainAttribute, domainAttribute != host {
            guard UpstreamCookie.domainMatches(host: host, domain: domainAttribute), domainAttribute.contains(".") else { return }
            domain = domainAttribute
            hostOnly = false
        } else {
            domain = host
            hostOnly = domainAttribute == nil
        }
        let cookie = UpstreamCookie(
            name: name,
            value: value,
            domain: domain,
            hostOnly: hostOnly,
            path: path ?? UpstreamCookie.defaultPath(of: url),
            secure: secure,
            expires: maxAge ?? expires,
            created: counter
        )
        counter += 1
        // §5.3 step 11: a cookie with the same name, domain and path replaces the old one and keeps its creation time.
        if let existing = cookies.firstIndex(where: { $0.name == name && $0.domain == domain && $0.path == cookie.path }) {
            let created = cookies[existing].created
            cookies.remove(at: existing)
            if cookie.isExpired(at: now) { return }
            var replacement = cookie
            replacement.created = created
            cookies.append(replacement)
        } else {
            if cookie.isExpired(at: now) { return }
            cookies.removeAll { $0.isExpired(at: now) }
            if cookies.count >= Self.maximumCookies, let oldest = cookies.indices.min(by: { cookies[$0].created < cookies[$1].created }) {
                cookies.remove(at: oldest)
            }
            cookies.append(cookie)
        }
    }

    /// The date formats of `Expires` met in practice (RFC 1123, RFC 850, asctime, and the common `dd-MMM-yyyy` mix).
    private static let dateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy", "EEE, dd-MMM-yyyy HH:mm:ss zzz",
    ]

    private static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in dateFormats {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
