import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import HAAPIGateway

/// The connection caps as counting: a connection is counted once when it opens and released once when it closes, so the
/// caps neither leak places nor let one more in.
@Suite("Connection caps: each connection counted once and released once")
struct ConnectionLimitsTests {
    private static func lease(_ admission: ConnectionLimits.Admission) -> ConnectionLease? {
        if case .admitted(let lease) = admission { lease } else { nil }
    }

    private static func refusal(_ admission: ConnectionLimits.Admission) -> (ConnectionBound, Int)? {
        if case .refused(let bound, let open) = admission { (bound, open) } else { nil }
    }

    @Test("server.maximumConnectionsPerAddress refuses one more from the same address only; 0 is no cap per address")
    func perAddressCap() throws {
        let limits = ConnectionLimits(maximumConnections: 100, maximumConnectionsPerAddress: 2)
        let first = try #require(Self.lease(limits.admit(from: "127.0.0.2")))
        let second = try #require(Self.lease(limits.admit(from: "127.0.0.2")))
        let refused = try #require(Self.refusal(limits.admit(from: "127.0.0.2")))
        #expect(refused.0 == .perAddress && refused.1 == 2)
        let third = try #require(Self.lease(limits.admit(from: "127.0.0.3")), "another address still gets in")
        #expect(limits.openConnections == 3)
        #expect(limits.openConnections(from: "127.0.0.2") == 2)
        _ = (first, second, third)

        let uncapped = ConnectionLimits(maximumConnections: 100, maximumConnectionsPerAddress: 0)
        let leases = (0..<50).compactMap { _ in Self.lease(uncapped.admit(from: "127.0.0.2")) }
        #expect(leases.count == 50)

        // A trusted reverse proxy carries many people: only the total applies to it.
        let behindProxy = ConnectionLimits(maximumConnections: 100, maximumConnectionsPerAddress: 2, exempt: [IPAddressRange("10.0.0.0/8")!])
        let proxied = (0..<20).compactMap { _ in Self.lease(behindProxy.admit(from: "10.1.2.3")) }
        #expect(proxied.count == 20)
        let others = (0..<3).compactMap { _ in Self.lease(behindProxy.admit(from: "192.0.2.1")) }
        #expect(others.count == 2, "everyone else keeps the cap")
    }

    @Test("server.maximumConnections refuses one more from any address; a connection without an IP address counts in the total")
    func totalCap() throws {
        let limits = ConnectionLimits(maximumConnections: 3, maximumConnectionsPerAddress: 2)
        let leases = [limits.admit(from: "10.0.0.1"), limits.admit(from: "10.0.0.2"), limits.admit(from: nil)].compactMap(Self.lease)
        #expect(leases.count == 3)
        let refused = try #require(Self.refusal(limits.admit(from: "10.0.0.9")))
        #expect(refused.0 == .total && refused.1 == 3)
        #expect(Self.refusal(limits.admit(from: nil))?.0 == .total)
        leases[2].release()
        #expect(Self.lease(limits.admit(from: "10.0.0.9")) != nil, "a released place is free again")
    }

    @Test("a release gives the place back once: a second release, or dropping a released lease, changes nothing")
    func releaseExactlyOnce() throws {
        let limits = ConnectionLimits(maximumConnections: 10, maximumConnectionsPerAddress: 1)
        let lease = try #require(Self.lease(limits.admit(from: "127.0.0.2")))
        let other = try #require(Self.lease(limits.admit(from: "127.0.0.3")))
        #expect(Self.refusal(limits.admit(from: "127.0.0.2")) != nil)
        #expect(lease.release())
        #expect(!lease.release(), "only the first release counts")
        #expect(lease.isReleased)
        #expect(limits.openConnections == 1)
        #expect(limits.openConnections(from: "127.0.0.2") == 0)
        #expect(limits.addressesWithConnections == 1, "an address without connections is forgotten")
        do {
            // A lease dropped without a release gives its place back; one dropped after a release does not again.
            let dropped = try #require(Self.lease(limits.admit(from: "127.0.0.4")))
            #expect(limits.openConnections == 2)
            _ = dropped
        }
        #expect(limits.openConnections == 1)
        _ = other
    }

    @Test("many connections opening and closing at once on many threads: never over a cap, and every place comes back")
    func concurrentCounting() async {
        let limits = ConnectionLimits(maximumConnections: 40, maximumConnectionsPerAddress: 8)
        let overCap = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var over = false
                    for round in 0..<500 {
                        let address = "10.0.0.\((task + round) % 6)"
                        if case .admitted(let lease) = limits.admit(from: address) {
                            over = over || limits.openConnections > 40 || limits.openConnections(from: address) > 8
                            lease.release()
                            lease.release()
                        }
                    }
                    return over
                }
            }
            return await group.reduce(false) { $0 || $1 }
        }
        #expect(!overCap)
        #expect(limits.openConnections == 0)
        #expect(limits.addressesWithConnections == 0)
    }

    /// A connection from `peer` through the handler, on an embedded channel.
    private static func connection(
        from peer: String,
        limits: ConnectionLimits,
        notices: ConnectionNotices,
        addWhenActive: Bool = false
    ) throws -> EmbeddedChannel {
        // An embedded channel's remote address is the one it "connects" to.
        let channel = EmbeddedChannel()
        let address = try SocketAddress(ipAddress: peer, port: 40_000)
        if addWhenActive { channel.connect(to: address, promise: nil) }
        try channel.pipeline.syncOperations.addHandler(ConnectionLimitHandler(limits: limits, notices: notices))
        if !addWhenActive { channel.connect(to: address, promise: nil) }
        channel.embeddedEventLoop.run()
        return channel
    }

    @Test("the channel handler counts a connection when it opens (once, however it is told) and releases it when it closes (once)")
    func handlerCountsOnceReleasesOnce() throws {
        let limits = ConnectionLimits(maximumConnections: 10, maximumConnectionsPerAddress: 2)
        let notices = ConnectionNotices(logger: Logger(label: "test"), metrics: GatewayMetrics())
        let early = try Self.connection(from: "127.0.0.2", limits: limits, notices: notices)
        #expect(limits.openConnections == 1)
        // Added to a connection already open, then told again that it is active: still one.
        let late = try Self.connection(from: "127.0.0.2", limits: limits, notices: notices, addWhenActive: true)
        late.pipeline.fireChannelActive()
        #expect(limits.openConnections == 2)
        #expect(late.isActive && early.isActive)

        _ = try early.finish()
        #expect(limits.openConnections == 1, "released when it closed")
        #expect(limits.openConnections(from: "127.0.0.2") == 1)
        // Closed, then the handler removed (the pipeline taken down): no second release.
        late.close(promise: nil)
        late.embeddedEventLoop.run()
        if let context = try? late.pipeline.syncOperations.context(handlerType: ConnectionLimitHandler.self) {
            late.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
        late.embeddedEventLoop.run()
        #expect(limits.openConnections == 0)
        #expect(limits.addressesWithConnections == 0)
    }

    @Test("a connection over a cap is closed at once, is not counted, and its close releases nothing; the refusal is counted in the metrics")
    func handlerRefusesAtOnce() throws {
        let limits = ConnectionLimits(maximumConnections: 10, maximumConnectionsPerAddress: 1)
        let metrics = GatewayMetrics()
        let notices = ConnectionNotices(logger: Logger(label: "test"), metrics: metrics)
        let admitted = try Self.connection(from: "127.0.0.2", limits: limits, notices: notices)
        let refused = try Self.connection(from: "127.0.0.2", limits: limits, notices: notices)
        #expect(admitted.isActive)
        #expect(!refused.isActive, "closed at once")
        #expect(limits.openConnections == 1)
        _ = try? refused.finish()
        #expect(limits.openConnections == 1, "the refused connection's close gave back nothing")
        #expect(metrics.exposition().contains(#"haapi_gateway_connections_refused_total{reason="per_address"} 1"#))
        _ = try admitted.finish()
        #expect(limits.openConnections == 0)
    }
}
