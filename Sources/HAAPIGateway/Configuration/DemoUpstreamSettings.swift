/// Options for the embedded demo upstream.
public struct DemoUpstreamSettings: Sendable {
    /// Whether the demo server requires DPoP nonces.
    public var requireDPoPNonce: Bool
    /// Scopes the gateway asks for (default `openid profile email`).
    public var scopes: [String]
    /// How long one call to the demo upstream may take (default 5 s).
    public var timeoutSeconds: Int

    /// Creates demo upstream settings.
    /// - Parameters:
    ///   - requireDPoPNonce: Whether DPoP nonces are required.
    ///   - scopes: The scopes to request.
    ///   - timeoutSeconds: How long one upstream call may take.
    public init(requireDPoPNonce: Bool = false, scopes: [String] = ["openid", "profile", "email"], timeoutSeconds: Int = 5) {
        self.requireDPoPNonce = requireDPoPNonce
        self.scopes = scopes
        self.timeoutSeconds = timeoutSeconds
    }
}
