import Foundation
import HAAPIGateway
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// #18 item 7 against a running gateway, with raw sockets: a client that trickles a request is closed at
    /// `server.requestTimeoutSeconds` while a person signs in beside it, and connections over `server.maximumConnections…`
    /// are closed at once and give their place back when they close.
    @Suite("Slow and crowded clients")
    struct SlowAndCrowdedClientTests {
        private static func port(_ browser: TestBrowser) throws -> Int { try #require(URL(string: browser.baseURL)?.port) }

        private static func lines(_ metrics: GatewayMetrics) -> Set<String> {
            Set(metrics.exposition().split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
        }

        @Test("a form post that sends its declared body a byte a second is closed at server.requestTimeoutSeconds, and a person signs in meanwhile")
        func slowBodyIsClosed() async throws {
            let log = LogCapture()
            let metrics = GatewayMetrics()
            try await GatewayHarness.withGateway(logger: log.logger, metrics: metrics, configure: { $0.server.requestTimeoutSeconds = 2 }) {
                browser,
                _,
                _ in
                let port = try Self.port(browser)
                // The slow client holds a session of its own, so its post is one whose body the gateway waits for.
                let cookie = try await TestBrowser.using(browser.baseURL) { other in
                    _ = try await other.get("/")
                    return other.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
                }
                let slow = try RawConnection(to: port)
                #expect(
                    slow.send(
                        "POST /cancel HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n"
                    )
                )
                async let closedAfter = slow.trickle(Array(repeating: UInt8(ascii: "a"), count: 1000), every: .seconds(1), until: .seconds(12))
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("You are signed in"), "a person gets pages while the slow client trickles")
                let elapsed = await closedAfter
                #expect(elapsed != nil, "the connection stayed open for 12 s")
                if let elapsed { #expect(elapsed < .seconds(6), "closed after \(elapsed); \(MachineLoad.description)") }
                #expect(!slow.receivedText.hasPrefix("HTTP/1.1 2"), "the post was never answered as a success")
            }
            #expect(log.text.contains("connection closed: request not complete within 2 s (server.requestTimeoutSeconds), from 127.0.0.1"))
            #expect(Self.lines(metrics).contains { $0.hasPrefix("haapi_gateway_connections_timed_out_total ") })
        }

        @Test("a request line sent a byte a second is closed at server.requestTimeoutSeconds")
        func slowHeadIsClosed() async throws {
            try await GatewayHarness.withGateway(configure: { $0.server.requestTimeoutSeconds = 2 }) { browser, _, _ in
                let slow = try RawConnection(to: try Self.port(browser))
                #expect(slow.send("GET /healthz HT"))
                let elapsed = await slow.trickle(
                    Array("TP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaa\r\n\r\n".utf8),
                    every: .seconds(1),
                    until: .seconds(12)
                )
                #expect(elapsed != nil, "the connection stayed open for 12 s")
                if let elapsed { #expect(elapsed < .seconds(6), "closed after \(elapsed); \(MachineLoad.description)") }
                #expect(slow.received.isEmpty)
            }
        }

        @Test("a kept-alive connection must bring its next request within server.requestTimeoutSeconds of the last response")
        func idleKeptAliveConnectionIsClosed() async throws {
            try await GatewayHarness.withGateway(configure: { $0.server.requestTimeoutSeconds = 2 }) { browser, _, _ in
                let connection = try RawConnection(to: try Self.port(browser))
                #expect(connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
                let deadline = ContinuousClock.now + .seconds(10)
                while !connection.receivedText.contains(#"{"status":"alive"}"#), ContinuousClock.now < deadline {
                    _ = await connection.closesByPeer(within: .milliseconds(100))
                }
                #expect(connection.receivedText.hasPrefix("HTTP/1.1 200"))
                let elapsed = await connection.waitForClose(timeout: .seconds(12))
                #expect(elapsed != nil, "an idle kept-alive connection stayed open for 12 s")
                if let elapsed { #expect(elapsed > .seconds(1) && elapsed < .seconds(5), "closed after \(elapsed); \(MachineLoad.description)") }
            }
        }

        @Test("no time bound while the gateway works on a response: a slow upstream answer still reaches the person")
        func noBoundWhileResponding() async throws {
            try await GatewayHarness.withProxiedGateway(configure: { $0.server.requestTimeoutSeconds = 1 }) { browser, _, _, proxy in
                proxy.fault = .silence(seconds: 3)
                let started = ContinuousClock.now
                let page = try await browser.get("/")
                #expect(ContinuousClock.now - started > .seconds(2), "the upstream was slow")
                #expect(page.html.contains("Try again") || page.html.contains("unavailable"), "the page came: \(page.status)")
            }
        }

        @Test("over HTTPS too: a request line sent a byte a second after the handshake is closed at server.requestTimeoutSeconds")
        func slowHeadOverTLS() async throws {
            let serverTLS = ServerTLSSettings(
                certificateChainPEM: TLSTestMaterial.serverCertificatePEM,
                privateKeyPEM: TLSTestMaterial.serverPrivateKeyPEM
            )
            try await GatewayHarness.withGateway(configure: {
                $0.server.tls = serverTLS
                $0.server.requestTimeoutSeconds = 2
            }) { browser, _, _ in
                var tls = TLSConfiguration.makeClientConfiguration()
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(TLSTestMaterial.caCertificatePEM.utf8)))
                let context = try NIOSSLContext(configuration: tls)
                let received = ReceivedBytes()
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: "localhost"))
                        try channel.pipeline.syncOperations.addHandler(received)
                    }
                }.connect(host: "127.0.0.1", port: try Self.port(browser)).get()
                // One whole request first: the handshake worked and the connection is served.
                try await channel.writeAndFlush(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
                let deadline = ContinuousClock.now + .seconds(10)
                while !received.text.contains(#"{"status":"alive"}"#), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
                #expect(received.text.hasPrefix("HTTP/1.1 200"))
                let started = ContinuousClock.now
                for byte in "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8 {
                    guard channel.isActive, ContinuousClock.now - started < .seconds(12) else { break }
                    channel.writeAndFlush(ByteBuffer(bytes: [byte]), promise: nil)
                    try await Task.sleep(for: .seconds(1))
                }
                let elapsed = ContinuousClock.now - started
                #expect(!channel.isActive, "the connection stayed open")
                #expect(elapsed < .seconds(6), "closed after \(elapsed); \(MachineLoad.description)")
                try? await channel.close()
            }
        }

        @Test(
            "over server.maximumConnectionsPerAddress or server.maximumConnections a connection is closed at once; a closed one gives its place back"
        )
        func capsRefuseAndRelease() async throws {
            let log = LogCapture()
            let metrics = GatewayMetrics()
            try await GatewayHarness.withGateway(
                logger: log.logger,
                metrics: metrics,
                configure: {
                    $0.server.maximumConnections = 5
                    $0.server.maximumConnectionsPerAddress = 2
                }
            ) { browser, _, _ in
                let port = try Self.port(browser)
                func isServed(_ connection: RawConnection) async -> Bool {
                    guard connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") else { return false }
                    let deadline = ContinuousClock.now + .seconds(10)
                    while !connection.receivedText.contains(#"{"status":"alive"}"#), ContinuousClock.now < deadline {
                        if await connection.closesByPeer(within: .milliseconds(100)) { return false }
                    }
                    return connection.receivedText.hasPrefix("HTTP/1.1 200")
                }
                let first = try RawConnection(to: port, from: "127.0.0.2"), second = try RawConnection(to: port, from: "127.0.0.2")
                #expect(await isServed(first))
                #expect(await isServed(second))
                let third = try RawConnection(to: port, from: "127.0.0.2")
                #expect(await third.waitForClose(timeout: .seconds(5)) != nil, "the third from 127.0.0.2 is closed at once")
                #expect(third.received.isEmpty, "without an answer")

                // Other addresses fill the total (the test framework's own client may hold one place from 127.0.0.1).
                var others: [RawConnection] = []
                var refusedByTotal = false
                for index in 3...8 where !refusedByTotal {
                    let connection = try RawConnection(to: port, from: "127.0.0.\(index)")
                    if await connection.waitForClose(timeout: .milliseconds(500)) != nil {
                        refusedByTotal = true
                    } else {
                        others.append(connection)
                    }
                }
                #expect(refusedByTotal)
                #expect(others.count <= 3)

                // A closed connection gives its place back: from 127.0.0.2 again, and in the total.
                first.close()
                try await Task.sleep(for: .milliseconds(300))
                let again = try RawConnection(to: port, from: "127.0.0.2")
                #expect(await isServed(again), "the place of the closed connection is free again")
                for connection in [second, again, third] + others { connection.close() }
                try await Task.sleep(for: .milliseconds(300))
                let person = try await browser.get("/")
                #expect(person.status == 200, "every place came back")
            }
            #expect(log.text.contains("connection refused: 2 connections from 127.0.0.2 (server.maximumConnectionsPerAddress)"))
            #expect(log.text.contains("connections open, one more from 127.0.0."), "\(log.text)")
            #expect(log.text.contains("(server.maximumConnections)"))
            let lines = Self.lines(metrics)
            #expect(lines.contains(#"haapi_gateway_connections_refused_total{reason="per_address"} 1"#))
            #expect(lines.contains(#"haapi_gateway_connections_refused_total{reason="total"} 1"#))
        }
    }
}

/// Bytes a client channel received, readable from the test.
private final class ReceivedBytes: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let bytes = NIOLockedValueBox<[UInt8]>([])

    var text: String { String(decoding: bytes.withLockedValue { $0 }, as: UTF8.self) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        bytes.withLockedValue { $0 += buffer.readableBytesView }
    }
}
