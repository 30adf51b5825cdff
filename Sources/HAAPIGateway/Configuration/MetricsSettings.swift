/// The Prometheus metrics listener, separate from the sign-in pages so it need not be exposed with them.
public struct MetricsSettings: Sendable {
    /// Whether `/metrics` is served (default off).
    public var enabled: Bool
    /// The address to bind (default `127.0.0.1`).
    public var host: String
    /// The port to bind (default 9464; 0 picks a free port).
    public var port: Int

    /// Creates metrics settings.
    /// - Parameters:
    ///   - enabled: Whether `/metrics` is served.
    ///   - host: The address to bind.
    ///   - port: The port to bind.
    public init(enabled: Bool = false, host: String = "127.0.0.1", port: Int = 9464) {
        self.enabled = enabled
        self.host = host
        self.port = port
    }
}
