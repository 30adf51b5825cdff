import HAAPIGateway

/// What `haapi-gateway proxy` refuses before looking at a request's path: whatever is not a plain request for the
/// target, sent by a program on this host to the proxy's own address.
///
/// - `CONNECT` (a tunnel to wherever the client names): 405.
/// - A `Host` that is not the proxy's own address (a loopback name or address and the port it listens on): 421
///   Misdirected Request. A client that takes the proxy for a forward proxy sends the other server's name there (and the
///   target in absolute form), and a web page that had a name of its own resolve to 127.0.0.1 (DNS rebinding) sends its
///   name: neither is forwarded, to the target or anywhere else.
/// - A request a browser sends for a web page (`Origin`, or any `Sec-Fetch-*` field): 403. A page open in a browser on
///   this host may send requests to 127.0.0.1, and the proxy would add the person's token to them.
public enum ProxyRequestCheck {
    /// The fields only browsers send for a page's requests (lower-cased).
    static let browserFields: Set<String> = ["origin", "sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest", "sec-fetch-user"]

    /// Why the request is refused, or nil when it may go on.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - authority: Its `Host` (nil when it sent none).
    ///   - fields: Its header fields.
    ///   - port: The port the proxy listens on.
    ///   - target: Where the proxy forwards, for the messages.
    public static func refusal(
        method: String,
        authority: String?,
        fields: [(name: String, value: String)],
        port: Int,
        target: ProxyTarget
    ) -> ProxyRefusal? {
        guard method.uppercased() != "CONNECT" else {
            return ProxyRefusal(status: 405, "CONNECT is refused: this proxy forwards requests to \(target.origin) only")
        }
        // A target answers TRACE with the request it received, the access token the proxy added among it: any local user
        // who can reach the loopback port would read the sign-in's token.
        guard method.uppercased() != "TRACE" else {
            return ProxyRefusal(status: 405, "TRACE is refused: the target would echo the request back, the access token with it")
        }
        guard let authority, isOwn(authority, port: port) else {
            return ProxyRefusal(
                status: 421,
                "the request is for \(LogText.untrusted(authority ?? "no host")), not for this proxy: it forwards only what is sent to it, to \(target.origin)"
            )
        }
        if let field = fields.first(where: { browserFields.contains($0.name.lowercased()) }) {
            return ProxyRefusal(
                status: 403,
                "a request from a web page (\(field.name.lowercased())) is refused: a page in a browser could otherwise use this host's sign-in"
            )
        }
        return nil
    }

    /// Whether `authority` (`host[:port]`) names the proxy: a loopback host and its port.
    static func isOwn(_ authority: String, port: Int) -> Bool {
        var host = Substring(authority), portText: Substring = "80"
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return false }
                portText = rest.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        return ProxyListenAddress.isLoopback(String(host)) && isPort(portText) && Int(portText) == port
    }

    /// Whether `text` is a port as RFC 3986 writes one: ASCII digits only (`Int` alone would take `+8787`).
    static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
