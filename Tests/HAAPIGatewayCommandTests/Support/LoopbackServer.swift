import Hummingbird
import Logging

/// Runs a test's own HTTP server (a scripted peer) on a free loopback port.
enum LoopbackServer {
    /// Serves `router` on 127.0.0.1 while `body` runs with the port, then stops it, also when `body` throws.
    static func serving<T: Sendable>(_ router: Router<BasicRequestContext>, label: String, _ body: (Int) async throws -> T) async throws -> T {
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let server = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            server.cancel()
            throw CancellationError()
        }
        do {
            let result = try await body(port)
            server.cancel()
            _ = await server.result
            return result
        } catch {
            server.cancel()
            _ = await server.result
            throw error
        }
    }
}
