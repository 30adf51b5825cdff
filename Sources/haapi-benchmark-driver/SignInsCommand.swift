import ArgumentParser
import AsyncHTTPClient
import Foundation
import HAAPI

/// Signs in as demo/demo again and again, alternating between the HAAPI library against the upstream and a browser
/// against the gateway (the order swapped every round), and writes each step's duration of every round as JSON, with
/// the CPU time this process spent on each sign-in (the client's share of it).
struct SignInsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-ins",
        abstract: "Interleaved sign-ins, direct and through the gateway; per-step durations as JSON."
    )

    @Option(help: "The demo upstream's issuer (loopback: http://127.0.0.1:PORT/oauth/v2/oauth-anonymous).")
    var upstream: LoopbackURL

    @Option(help: "The gateway's base URL (loopback); it must use the same upstream.")
    var gateway: LoopbackURL

    @Option(help: "Measured rounds (each one sign-in of each variant).")
    var rounds = 200

    @Option(help: "Unmeasured rounds first.")
    var warmupRounds = 20

    @Option(help: "Stop after this many seconds even if rounds remain.")
    var timeLimitSeconds = 300

    @Option(help: "Where to write the JSON.")
    var output: String

    @Option(help: "The gateway's process id: its CPU time for each sign-in and exchange is written too (Linux).")
    var gatewayPID: Int32?

    func run() async throws {
        let client = try await HAAPIClient(
            configuration: HAAPIClientConfiguration(
                baseURL: upstream.url,
                clientID: "demo-gateway",
                clientAuthentication: .secretBasic("demo-secret"),
                redirectURI: "haapi:start",
                scopes: ["openid", "profile", "email"]
            )
        )
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let browser = BrowserSignIn(client: http, gateways: GatewayRotation([gateway]))
        let deadline = ContinuousClock.now + .seconds(timeLimitSeconds)
        var results = SignInTimings()
        do {
            for round in 0..<(warmupRounds + rounds) where ContinuousClock.now < deadline {
                let directFirst = round.isMultiple(of: 2)
                var direct: [Duration] = []
                var gateway: [Duration] = []
                var cpu = RoundCPU()
                for variant in directFirst ? [true, false] : [false, true] {
                    let before = cpuBefore()
                    if variant {
                        direct = try await DirectSignIn(flow: client.makeFlow()).run()
                        cpu.direct = cpuAfter() - before
                    } else {
                        var formFinding = Duration.zero
                        gateway = try await browser.run(formFindingCPU: &formFinding)
                        cpu.gateway = cpuAfter() - before
                        // The browser's reading of the pages is outside the timings; so is its CPU.
                        cpu.gateway.clientMicroseconds -= SignInTimings.microseconds(formFinding)
                    }
                }
                let before = cpuBefore()
                let exchange = try await ContinuousClock().measure { try await browser.healthCheck() }
                cpu.exchange = cpuAfter() - before
                if round >= warmupRounds { results.append(direct: direct, gateway: gateway, exchange: exchange, cpu: cpu) }
            }
        } catch {
            try? await http.shutdown()
            try? await client.shutdown()
            throw error
        }
        try await http.shutdown()
        try await client.shutdown()
        try results.write(to: URL(fileURLWithPath: output))
    }

    /// The CPU times before a part of a round: the gateway's first, this process's last, so that reading the gateway's
    /// (this process's work) is not counted in the part.
    private func cpuBefore() -> CPUReading {
        let gateway = gatewayPID.flatMap { OtherProcessCPUTime(pid: $0).now() }
        return CPUReading(client: ProcessCPUTime.now(), gateway: gateway)
    }

    /// The CPU times after a part of a round: this process's first, the gateway's last (see ``cpuBefore()``).
    private func cpuAfter() -> CPUReading {
        let client = ProcessCPUTime.now()
        return CPUReading(client: client, gateway: gatewayPID.flatMap { OtherProcessCPUTime(pid: $0).now() })
    }
}
