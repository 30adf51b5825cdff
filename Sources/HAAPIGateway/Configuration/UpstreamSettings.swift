import HAAPI

/// The HAAPI server the gateway signs people in with.
public enum UpstreamSettings: Sendable {
    /// The embedded demo HAAPI server, started in-process on a free loopback port (the default).
    case demo(DemoUpstreamSettings)
    /// A real HAAPI server (Curity), with the client library's full configuration.
    case haapi(HAAPIClientConfiguration)

    /// Whether it is a real HAAPI server, not the embedded demo.
    public var isHAAPI: Bool {
        if case .haapi = self { true } else { false }
    }

    /// The scopes asked for, of the demo upstream or the real one.
    public var scopes: [String] {
        switch self {
        case .demo(let demo): return demo.scopes
        case .haapi(let client): return client.scopes
        }
    }
}
