/// How the embedded demo HAAPI server is started.
public struct DemoServerConfiguration: Sendable {
    /// The address to bind; loopback by default. Any other address prints a loud warning.
    public var host: String
    /// The port to bind; 0 picks a free port.
    public var port: Int
    /// When true, DPoP nonces are issued and required (`use_dpop_nonce` challenges).
    public var requireDPoPNonce: Bool

    /// Creates a configuration.
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port to bind; 0 picks a free one.
    ///   - requireDPoPNonce: Whether DPoP nonces are issued and required.
    public init(host: String = "127.0.0.1", port: Int = 0, requireDPoPNonce: Bool = false) {
        self.host = host
        self.port = port
        self.requireDPoPNonce = requireDPoPNonce
    }
}
