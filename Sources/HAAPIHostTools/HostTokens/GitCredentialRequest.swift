import Foundation

/// What git asks a credential helper on standard input (git-credential(1), "INPUT/OUTPUT FORMAT"): `key=value` lines
/// ending at a blank line or the end of the input; `protocol` and `host` (with its `:port`) say where the credential
/// will be sent. Keys a helper does not know are ignored, as git-credential(1) asks; so are array keys (`wwwauth[]`).
public struct GitCredentialRequest: Sendable, Equatable {
    /// Each key's last value.
    public let attributes: [String: String]

    public init(attributes: [String: String]) {
        self.attributes = attributes
    }

    /// The request in `text`, or what is wrong with it.
    public static func parse(_ text: String) -> Result<Self, HostTokenProblem> {
        var attributes: [String: String] = [:]
        // "\r\n" is one Character in Swift: both end a line.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex else {
                return .failure(HostTokenProblem("git-credential: a line of git's request is not key=value"))
            }
            let key = String(line[..<equals])
            if key.hasSuffix("[]") { continue }
            attributes[key] = String(line[line.index(after: equals)...])
        }
        return .success(Self(attributes: attributes))
    }

    /// `protocol`: `https`, `http`, …
    public var scheme: String? { attributes["protocol"]?.lowercased() }

    /// `host`, with its port when git sends one.
    public var host: String? { attributes["host"] }

    /// Whether a token may be sent where the request says: over https, or plain http only to this host itself (a
    /// loopback address), where nothing crosses a network. Without a host it goes nowhere known, so no.
    public var isSafeForToken: Bool {
        guard let host, !host.isEmpty else { return false }
        switch scheme {
        case "https": return true
        case "http": return Self.isLoopback(Self.hostname(of: host))
        default: return false
        }
    }

    /// Whether `hostname` (without a port) is this host itself: `localhost`, `[::1]`, or an IPv4 address in 127.0.0.0/8
    /// written as four numbers (`127.0.0.1.example.com` is a name anywhere); ``ProxyListenAddress/isLoopback(_:)``.
    static func isLoopback(_ hostname: String) -> Bool {
        ProxyListenAddress.isLoopback(hostname)
    }

    /// `host` without its `:port` (an IPv6 address keeps its brackets). Anything after an address's closing bracket
    /// but a port (`[::1]evil.example`) leaves `host` whole: it is then no address, and no loopback.
    static func hostname(of host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && ProxyRequestCheck.isPort(rest.dropFirst())) else { return host }
            return String(host[...close])
        }
        if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon { return String(host[..<colon]) }
        return host
    }
}
