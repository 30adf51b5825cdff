import Synchronization

/// The connections open at once, in total and per peer address, shared by every channel of a listener: a connection is
/// admitted while both counts are below their caps (``ConnectionLimitHandler`` asks when it opens), and its
/// ``ConnectionLease`` gives its place back when it closes.
public final class ConnectionLimits: Sendable {
    /// What ``admit(from:)`` decided.
    public enum Admission: Sendable {
        /// Counted; release the lease when the connection closes.
        case admitted(ConnectionLease)
        /// Not counted: `bound` is full with `open` connections (from the address, for ``ConnectionBound/perAddress``).
        case refused(ConnectionBound, open: Int)
    }

    /// The connections open now.
    private struct Counts {
        /// In total.
        var total = 0
        /// By peer address (only addresses with connections open).
        var perAddress: [String: Int] = [:]
    }

    /// The most connections open at once.
    public let maximumConnections: Int
    /// The most connections open at once from one address; 0 for no cap per address.
    public let maximumConnectionsPerAddress: Int
    /// Addresses without a cap of their own: trusted reverse proxies (`server.trustedProxies`), which carry many people.
    public let exempt: [IPAddressRange]
    /// The counts, shared by every event loop of the listener.
    private let counts = Mutex(Counts())

    /// Caps for one listener.
    /// - Parameters:
    ///   - maximumConnections: The most connections open at once (at least 1).
    ///   - maximumConnectionsPerAddress: The most from one address; 0 for no cap per address.
    ///   - exempt: Addresses only the total applies to (trusted reverse proxies).
    public init(maximumConnections: Int, maximumConnectionsPerAddress: Int, exempt: [IPAddressRange] = []) {
        self.maximumConnections = max(1, maximumConnections)
        self.maximumConnectionsPerAddress = max(0, maximumConnectionsPerAddress)
        self.exempt = exempt
    }

    /// Counts a new connection from `address` (its IP address without the port; `nil` when it has none, as on a Unix
    /// socket: then only the total applies), or refuses it when a cap is reached.
    public func admit(from address: String?) -> Admission {
        let capped = address.map { address in maximumConnectionsPerAddress > 0 && !exempt.anyContains(address) } ?? false
        let decision: Admission? = counts.withLock { counts in
            if counts.total >= maximumConnections { return .refused(.total, open: counts.total) }
            if let address, capped {
                let fromAddress = counts.perAddress[address, default: 0]
                if fromAddress >= maximumConnectionsPerAddress { return .refused(.perAddress, open: fromAddress) }
            }
            counts.total += 1
            if let address { counts.perAddress[address, default: 0] += 1 }
            return nil
        }
        return decision ?? .admitted(ConnectionLease(limits: self, address: address))
    }

    /// Gives a place back (``ConnectionLease/release()`` calls this once).
    func release(address: String?) {
        counts.withLock { counts in
            counts.total -= 1
            guard let address, let fromAddress = counts.perAddress[address] else { return }
            // An address without connections is forgotten, so the table holds only addresses with connections open.
            counts.perAddress[address] = fromAddress > 1 ? fromAddress - 1 : nil
        }
    }

    /// The connections open now.
    public var openConnections: Int { counts.withLock { $0.total } }

    /// The connections open now from `address`.
    public func openConnections(from address: String) -> Int { counts.withLock { $0.perAddress[address, default: 0] } }

    /// How many addresses have connections open now.
    public var addressesWithConnections: Int { counts.withLock { $0.perAddress.count } }
}
