import ArgumentParser
import AsyncHTTPClient
import Foundation
import HAAPIGateway

/// Starts device authorizations at the gateway (RFC 8628 §3.1, a public device client) and writes their device codes,
/// one a line, for `device-polls`.
struct StartDevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start-devices",
        abstract: "Start device authorizations at the gateway; their device codes to a file, one a line."
    )

    @Option(help: "The gateway's base URL (loopback).")
    var gateway: LoopbackURL

    @Option(help: "The device client's id (a public client of \(ConfigurationKey.devicesClients.path)).")
    var clientID: String

    @Option(help: "How many device authorizations to start.")
    var count: Int

    @Option(help: "Requests in flight at once.")
    var concurrency = 16

    @Option(help: "Where to write the device codes.")
    var output: String

    func validate() throws {
        guard count > 0, concurrency > 0 else { throw ValidationError("--count and --concurrency must be positive") }
    }

    func run() async throws {
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency))
        )
        let device = DeviceEndpoints(client: http, gateway: gateway.base, clientID: clientID)
        let workers = min(concurrency, count)
        let started: [String]
        do {
            started = try await withThrowingTaskGroup(of: [String].self) { group in
                for worker in 0..<workers {
                    let share = count / workers + (worker < count % workers ? 1 : 0)
                    group.addTask {
                        var codes: [String] = []
                        for _ in 0..<share { codes.append(try await device.start()) }
                        return codes
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
        try (started.joined(separator: "\n") + "\n").write(toFile: output, atomically: true, encoding: .utf8)
    }
}
