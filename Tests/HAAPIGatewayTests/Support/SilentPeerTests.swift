import Testing

@testable import GatewayTestSupport

/// The tests' silent peer counts the connections others made to it, never its own markers: asked until a client has
/// connected, it said one had at the second asking, and a proxy test stopped its proxy with nothing under way.
@Suite("The tests' silent peer")
struct SilentPeerTests {
    @Test("asked again and again, the count leaves out its own markers; a client's connection counts once it is made")
    func countsOthersOnly() async throws {
        let peer = try SilentPeer(.silent)
        defer { peer.stop() }
        for _ in 0..<3 { #expect(try await peer.connectionsMadeSoFar() == 0) }
        let client = try RawConnection(to: peer.port)
        defer { client.close() }
        #expect(try await peer.connectionsMadeSoFar() == 1)
        #expect(try await peer.connectionsMadeSoFar() == 1)
    }
}
