import ArgumentParser
import AsyncHTTPClient
import Foundation

/// Signs in as demo/demo as a browser through each of several gateways in turn, round by round (the order rotated every
/// round, so with two gateways each goes first every other round), and writes each step's duration of every round as
/// JSON: gateways that differ in one setting (their session store), compared in one run on one machine.
struct CompareGatewaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare-gateways",
        abstract: "Interleaved browser sign-ins through several gateways; per-step durations as JSON."
    )

    @Option(name: .customLong("gateway"), help: "A gateway's base URL (loopback); give it twice or more, all with the same upstream.")
    var gateways: [LoopbackURL]

    @Option(help: "Measured rounds (each one sign-in through each gateway).")
    var rounds = 200

    @Option(help: "Unmeasured rounds first.")
    var warmupRounds = 20

    @Option(help: "Stop after this many seconds even if rounds remain.")
    var timeLimitSeconds = 300

    @Option(help: "Where to write the JSON.")
    var output: String

    func validate() throws {
        guard gateways.count >= 2 else { throw ValidationError("give --gateway at least twice") }
        guard rounds > 0, warmupRounds >= 0 else { throw ValidationError("--rounds must be positive and --warmup-rounds not negative") }
    }

    func run() async throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let browsers = gateways.map { BrowserSignIn(client: http, gateways: GatewayRotation([$0])) }
        let deadline = ContinuousClock.now + .seconds(timeLimitSeconds)
        var results = GatewayComparison(gateways: gateways.map(\.base))
        do {
            for round in 0..<(warmupRounds + rounds) where ContinuousClock.now < deadline {
                var timings: [[Duration]] = browsers.map { _ in [] }
                for offset in 0..<browsers.count {
                    let gateway = (round + offset) % browsers.count
                    timings[gateway] = try await browsers[gateway].run()
                }
                if round >= warmupRounds { results.append(timings) }
            }
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
        try results.write(to: URL(fileURLWithPath: output))
    }
}
