import ArgumentParser
import AsyncHTTPClient
import Foundation

/// Opens sign-in sessions at the gateway (`GET /` without a cookie, each one a new session at its first step) and
/// leaves them open; prints how many opened.
struct OpenSessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-sessions",
        abstract: "Open sessions at the gateway (GET / without a cookie) and leave them open."
    )

    @Option(help: "The gateway's base URL (loopback).")
    var gateway: LoopbackURL

    @Option(help: "How many sessions to open.")
    var count: Int

    @Option(help: "Requests in flight at once.")
    var concurrency = 16

    @Option(help: "Stop after this many seconds even if sessions remain.")
    var timeLimitSeconds = 600

    func validate() throws {
        guard count >= 0, concurrency > 0 else { throw ValidationError("--count must not be negative and --concurrency must be positive") }
    }

    func run() async throws {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                redirectConfiguration: .disallow,
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
            )
        )
        let deadline = ContinuousClock.now + .seconds(timeLimitSeconds)
        let url = gateway.base + "/"
        let workers = min(concurrency, max(1, count))
        let opened: Int
        do {
            opened = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<workers {
                    let share = count / workers + (worker < count % workers ? 1 : 0)
                    group.addTask {
                        var opened = 0
                        while opened < share, ContinuousClock.now < deadline {
                            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                            _ = try await response.body.collect(upTo: 1 << 20)
                            guard response.status == .ok, response.headers.first(name: "Set-Cookie") != nil else {
                                throw DriverError("GET / answered \(response.status.code) without a session cookie")
                            }
                            opened += 1
                        }
                        return opened
                    }
                }
                return try await group.reduce(0, +)
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        print(opened)
        guard opened == count else { throw DriverError("opened \(opened) of \(count) sessions before the time limit") }
    }
}
