import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import HAAPIGateway

/// `server.requestTimeoutSeconds` as a channel handler on an embedded channel whose clock the test moves: when the timer
/// runs, when it stops, and that parts arriving now and then do not restart it.
@Suite("Request time limit: a whole request within server.requestTimeoutSeconds")
struct RequestTimeLimitTests {
    private static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "127.0.0.1", path: "/cancel"))

    private static func channel(limit: Int64 = 10, metrics: GatewayMetrics = GatewayMetrics()) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.2", port: 40_000), promise: nil)
        try channel.pipeline.syncOperations.addHandler(
            RequestTimeLimitHandler(limit: .seconds(limit), notices: ConnectionNotices(logger: Logger(label: "test"), metrics: metrics))
        )
        return channel
    }

    private static func respond(_ channel: EmbeddedChannel) throws {
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
    }

    @Test("a connection that sends nothing is closed at the limit, not before; the close is counted")
    func idleConnectionIsClosed() throws {
        let metrics = GatewayMetrics()
        let channel = try Self.channel(metrics: metrics)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(9_999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
        #expect(metrics.exposition().contains("haapi_gateway_connections_timed_out_total 1"))
    }

    @Test("a head and body parts arriving every second do not restart the timer: closed at the limit")
    func tricklingBodyIsClosed() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        for second in 1...9 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
            #expect(channel.isActive, "after \(second) s")
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "a")))
        }
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test("no timer while the gateway works on a response; it starts again when the response has been written")
    func noTimerWhileResponding() throws {
        let channel = try Self.channel()
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive, "a slow upstream is bounded elsewhere")
        try Self.respond(channel)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(9_999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive, "a kept-alive connection must bring its next request within the limit")
    }

    @Test("pipelined requests: the timer stays off until the last one read is answered")
    func pipelinedRequests() throws {
        let channel = try Self.channel()
        for _ in 0..<2 {
            try channel.writeInbound(Self.head)
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }
        try Self.respond(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive, "the second request is still being answered")
        try Self.respond(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(!channel.isActive)
    }

    @Test("a response written before its request's body was read (a 413) leaves the timer running for the rest of the body")
    func earlyResponse() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        try Self.respond(channel)
        for _ in 0..<7 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "a")))
        }
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "still within the bound counted from the connection's opening")
    }

    @Test("a closed connection's timer is gone: nothing is counted after the close")
    func closedConnectionIsNotCounted() throws {
        let metrics = GatewayMetrics()
        let channel = try Self.channel(metrics: metrics)
        _ = try channel.finish()
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(!metrics.exposition().contains("haapi_gateway_connections_timed_out_total 1"))
    }
}
