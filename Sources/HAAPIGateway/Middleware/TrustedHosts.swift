import Foundation

/// The host names the gateway answers for (``TrustedHostMiddleware``): with `server.publicURL`, its host; without,
/// `localhost` and IP addresses (a DNS rebinding needs a name), and the configured listening host when it is a name.
enum TrustedHosts {
    /// Whether `authority` (`host[:port]`) names this gateway.
    static func accepts(_ authority: String, publicURL: URL?, listeningHost: String) -> Bool {
        guard let host = Self.host(of: authority) else { return false }
        if let publicHost = publicURL?.host?.lowercased() { return host == publicHost }
        if host == "localhost" || isIPAddress(host) { return true }
        return host == listeningHost.lowercased()
    }

    /// The host of an authority, lowercased, without brackets or port; nil when it is not one.
    static func host(of authority: String) -> String? {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("[") {
            guard let end = lowered.firstIndex(of: "]") else { return nil }
            let rest = lowered[lowered.index(after: end)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1) else { return nil }
            return String(lowered[lowered.index(after: lowered.startIndex)..<end])
        }
        let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let name = parts.first, !name.isEmpty else { return nil }
        if parts.count == 2 { guard !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber) else { return nil } }
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        return String(name)
    }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
