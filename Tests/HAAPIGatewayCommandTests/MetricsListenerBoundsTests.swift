import Foundation
import Testing

@testable import GatewayTestSupport

/// The metrics listener is bounded as the pages are: its connections count against `server.maximumConnections`, so a
/// flood of connections to it cannot take the descriptors the gateway needs (a whole gateway process).
@Suite("The metrics listener's connections", .startsPrograms())
struct MetricsListenerBoundsTests {
    @Test(
        "connections to the metrics listener count against server.maximumConnections: past it one is closed at once, unanswered; a closed one gives its place back"
    )
    func bounded() async throws {
        let serve = try RunningGateway(
            ["serve", "--port", "0"],
            environment: [
                "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0", "HAAPI_GATEWAY_METRICS_ENABLED": "true", "HAAPI_GATEWAY_METRICS_PORT": "0",
                "HAAPI_GATEWAY_SERVER_MAXIMUM_CONNECTIONS": "3", "HAAPI_GATEWAY_SERVER_MAXIMUM_CONNECTIONS_PER_ADDRESS": "0",
            ]
        )
        let port = try #require(Int(try await serve.waitForOutput(#"url=http://127\.0\.0\.1:(\d+)/metrics"#, inStandardError: true)))
        func isServed(_ connection: RawConnection) async -> Bool {
            guard connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") else { return false }
            let deadline = ContinuousClock.now + .seconds(10)
            while !connection.receivedText.contains(#"{"status":"alive"}"#), ContinuousClock.now < deadline {
                if await connection.closesByPeer(within: .milliseconds(100)) { return false }
            }
            return connection.receivedText.hasPrefix("HTTP/1.1 200")
        }
        var held: [RawConnection] = []
        for index in 2...4 {
            let connection = try RawConnection(to: port, from: "127.0.0.\(index)")
            #expect(await isServed(connection), "connection \(index - 1) of 3")
            held.append(connection)
        }
        let extra = try RawConnection(to: port, from: "127.0.0.9")
        #expect(await extra.waitForClose(timeout: .seconds(5)) != nil, "the fourth is closed at once")
        #expect(extra.received.isEmpty, "without an answer")
        held[0].close()
        try await Task.sleep(for: .milliseconds(300))
        let again = try RawConnection(to: port, from: "127.0.0.9")
        #expect(await isServed(again), "the place of the closed connection is free again")
        for connection in held + [extra, again] { connection.close() }
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit(timeout: .seconds(30)) == 0)
    }
}
