import Synchronization

/// The gateways a browser's requests go to, in turn, as a round-robin load balancer in front of replicas sends them:
/// every request takes the next one, whichever sign-in it belongs to, so consecutive requests of one sign-in may reach
/// different replicas. With one gateway every request goes to it.
final class GatewayRotation: Sendable {
    /// The gateways' base URLs (no trailing slash), in the order they are used.
    let bases: [String]
    private let requests = Atomic<UInt>(0)

    init(_ gateways: [LoopbackURL]) {
        precondition(!gateways.isEmpty, "at least one gateway")
        bases = gateways.map(\.base)
    }

    /// The base URL for the next request.
    func next() -> String {
        guard bases.count > 1 else { return bases[0] }
        let request = requests.wrappingAdd(1, ordering: .relaxed).oldValue
        return bases[Int(request % UInt(bases.count))]
    }
}
