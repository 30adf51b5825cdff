/// Options for the embedded demo upstream.
public struct DemoUpstreamSettings: Sendable {
    /// Whether the demo server requires DPoP nonces.
    public var requireDPoPNonce: Bool
    /// Whether the demo answers in its strict mode: DPoP nonces per key, token-bound authorization codes and a
    /// stickiness cookie every request of a flow must carry (what the test suite runs against).
    public var strict: Bool
    /// Scopes the gateway asks for (default `openid profile email`).
    public var scopes: [String]
    /// How long one call to the demo upstream may take (default 5 s).
    public var timeoutSeconds: Int

    /// Creates demo upstream settings.
    /// - Parameters:
    ///   - requireDPoPNonce: Whether DPoP nonces are required.
    ///   - scopes: The scopes to request.
    ///   - timeoutSeconds: How long one upstream call may take.
    public init(requireDPoPNonce: Bool = false, strict: Bool = false, scopes: [String] = ["openid", "profile", "email"], timeoutSeconds: Int = 5) {
        self.requireDPoPNonce = requireDPoPNonce
        self.strict = strict
        self.scopes = scopes
        self.timeoutSeconds = timeoutSeconds
    }
}
