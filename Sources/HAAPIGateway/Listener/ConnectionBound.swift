/// A cap on open connections that refused one: the total or the one per peer address.
public enum ConnectionBound: Sendable, Hashable, CaseIterable {
    /// `server.maximumConnections`: the connections open at once, from anywhere.
    case total
    /// `server.maximumConnectionsPerAddress`: the connections open at once from one peer address.
    case perAddress

    /// The configuration key that sets this cap, named in log lines.
    public var key: ConfigurationKey {
        switch self {
        case .total: .serverMaximumConnections
        case .perAddress: .serverMaximumConnectionsPerAddress
        }
    }

    /// The `reason` label of `haapi_gateway_connections_refused_total`.
    public var metricReason: String {
        switch self {
        case .total: "total"
        case .perAddress: "per_address"
        }
    }
}
