import HAAPIGateway

/// Where `haapi-gateway proxy` listens (`--listen`): a loopback address and a port, never anything else. The proxy adds
/// the token of this host's sign-in to every request it forwards, so whoever reaches it acts as the person who signed
/// in: only processes of this host may.
public struct ProxyListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The default port, when `--listen` gives none (`127.0.0.1:8787`).
    public static let defaultPort = 8787

    /// The address to bind: `127.0.0.1` (or another of `127.0.0.0/8`), `::1` or `localhost`.
    public let host: String
    /// The port to bind; 0 picks a free one.
    public let port: Int

    /// Reads `--listen`: `ADDRESS:PORT`, `[::1]:PORT`, `ADDRESS` (port 8787) or `PORT` (on 127.0.0.1).
    /// - Throws: ``GatewayError`` (`configuration`) naming what is wrong: not an address and port, or not loopback.
    public init(_ text: String) throws(GatewayError) {
        let shown = LogText.untrusted(text)
        var host = text, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw GatewayError(.configuration, "--listen \(shown) is not ADDRESS:PORT") }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw GatewayError(.configuration, "--listen \(shown) is not ADDRESS:PORT") }
                portText = rest.dropFirst()
            }
        } else if text.allSatisfy(\.isNumber) {
            host = "127.0.0.1"
            portText = Substring(text)
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        let port = portText.map { Int($0) } ?? Self.defaultPort
        guard !host.isEmpty, let port, (0...65_535).contains(port) else {
            throw GatewayError(.configuration, "--listen \(shown) is not ADDRESS:PORT with a port between 0 and 65535")
        }
        guard Self.isLoopback(host) else {
            throw GatewayError(
                .configuration,
                "--listen \(shown) is not a loopback address: the proxy adds this host's token to every request it forwards, so it listens on 127.0.0.1, ::1 or localhost only"
            )
        }
        self.host = host
        self.port = port
    }

    /// `host:port`, an IPv6 address in brackets.
    public var description: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// Whether `host` names this host's loopback interface: `localhost`, `::1`, or a dotted IPv4 address in `127.0.0.0/8`.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127"
            && octets.allSatisfy { octet in octet.count <= 3 && octet.allSatisfy { $0.isASCII && $0.isNumber } && (Int(octet) ?? 256) <= 255 }
    }
}
