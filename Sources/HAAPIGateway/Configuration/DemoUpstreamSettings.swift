/// Options for the embedded demo upstream.
public struct DemoUpstreamSettings: Sendable {
    /// Whether the demo server requires DPoP nonces.
    public var requireDPoPNonce: Bool
    /// Scopes the gateway asks for (default `openid profile email`).
    public var scopes: [String]

    /// Creates demo upstream settings.
    /// - Parameters:
    ///   - requireDPoPNonce: Whether DPoP nonces are required.
    ///   - scopes: The scopes to request.
    public init(requireDPoPNonce: Bool = false, scopes: [String] = ["openid", "profile", "email"]) {
        self.requireDPoPNonce = requireDPoPNonce
        self.scopes = scopes
    }
}
