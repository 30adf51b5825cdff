import ArgumentParser
import AsyncHTTPClient
import Foundation

/// Browsers signing in as demo/demo in parallel for a while, each starting its next sign-in when one ends, every
/// request sent to the next of the given gateways in turn (a round-robin balancer in front of replicas that share their
/// sessions: consecutive requests of one sign-in reach different replicas). Prints the sign-ins completed per second and
/// the failures as JSON; a failed sign-in is counted and the browser starts another.
struct SignInRateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in-rate",
        abstract: "Parallel browser sign-ins, requests spread over the gateways round robin; sign-ins per second as JSON."
    )

    @Option(name: .customLong("gateway"), help: "A gateway's base URL (loopback); give one per replica, all sharing their sessions and upstream.")
    var gateways: [LoopbackURL]

    @Option(help: "Browsers signing in at once.")
    var concurrency = 16

    @Option(help: "Measured seconds: no sign-in starts after them, and the ones under way finish.")
    var seconds = 10.0

    @Option(help: "Unmeasured seconds of the same load first.")
    var warmupSeconds = 0.0

    @Option(help: "Where to write the JSON (default: standard output).")
    var output: String?

    func validate() throws {
        guard !gateways.isEmpty else { throw ValidationError("give --gateway at least once") }
        guard concurrency > 0, seconds > 0, warmupSeconds >= 0 else {
            throw ValidationError("--concurrency and --seconds must be positive and --warmup-seconds not negative")
        }
    }

    func run() async throws {
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                redirectConfiguration: .disallow,
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
            )
        )
        let browser = BrowserSignIn(client: http, gateways: GatewayRotation(gateways))
        var rate = SignInRate(gateways: gateways.map(\.base), concurrency: concurrency)
        if warmupSeconds > 0 { _ = await load(browser, for: .milliseconds(Int(warmupSeconds * 1000))) }
        let started = ContinuousClock.now
        let tallies = await load(browser, for: .milliseconds(Int(seconds * 1000)))
        let elapsed = ContinuousClock.now - started
        try await http.shutdown()
        for tally in tallies { rate.add(tally) }
        rate.finish(elapsed: elapsed, durations: tallies.flatMap(\.durations))
        let json = try rate.json()
        if let output {
            try json.write(to: URL(fileURLWithPath: output))
        } else {
            print(String(decoding: json, as: UTF8.self))
        }
        guard rate.signIns > 0 else { throw DriverError("no sign-in completed: \(rate.failureSamples.joined(separator: "; "))") }
    }

    /// `concurrency` browsers signing in one sign-in after another until `duration` has passed; each one's tally.
    private func load(_ browser: BrowserSignIn, for duration: Duration) async -> [SignInRate.Tally] {
        let deadline = ContinuousClock.now + duration
        return await withTaskGroup(of: SignInRate.Tally.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var tally = SignInRate.Tally()
                    while ContinuousClock.now < deadline {
                        do {
                            let steps = try await browser.run()
                            tally.durations.append(steps.reduce(.zero, +))
                        } catch {
                            tally.fail(error)
                            // A gateway that refuses at once would otherwise be asked again in a tight loop.
                            try? await Task.sleep(for: .milliseconds(10))
                        }
                    }
                    return tally
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }
}
