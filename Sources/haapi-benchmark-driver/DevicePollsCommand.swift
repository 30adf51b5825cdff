import ArgumentParser
import AsyncHTTPClient
import Foundation
import HAAPIGateway

/// Devices polling the gateway's token endpoint with their device codes (from `start-devices`) for a while, as fast as
/// the gateway answers, each device no sooner than its interval after its last poll (so a pending code is answered
/// `authorization_pending`, not `slow_down`): the workers share the devices out and take them in turn. Prints the polls
/// per second and the answers as JSON.
struct DevicePollsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-polls",
        abstract: "Poll the token endpoint with many device codes, each at its interval; polls per second and answers as JSON."
    )

    @Option(help: "The gateway's base URL (loopback).")
    var gateway: LoopbackURL

    @Option(help: "The device client's id (a public client of \(ConfigurationKey.devicesClients.path)).")
    var clientID: String

    @Option(help: "A file of device codes, one a line (start-devices).")
    var deviceCodes: String

    @Option(
        help:
            "The gateway's \(ConfigurationKey.devicesPollIntervalSeconds.path): a device is polled again no sooner (and 250 ms more: a poll's way to the database)."
    )
    var intervalSeconds = 5.0

    @Option(help: "Measured seconds: no poll starts after them.")
    var seconds = 10.0

    @Option(help: "Polls in flight at once.")
    var concurrency = 32

    @Option(help: "Where to write the JSON (default: standard output).")
    var output: String?

    func validate() throws {
        guard concurrency > 0, seconds > 0, intervalSeconds >= 0 else {
            throw ValidationError("--concurrency and --seconds must be positive and --interval-seconds not negative")
        }
    }

    func run() async throws {
        let codes = try String(contentsOfFile: deviceCodes, encoding: .utf8).split(separator: "\n").map(String.init)
        guard codes.count >= concurrency else { throw DriverError("\(codes.count) device codes for \(concurrency) workers") }
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency))
        )
        let device = DeviceEndpoints(client: http, gateway: gateway.base, clientID: clientID)
        let pause = Duration.milliseconds(Int(intervalSeconds * 1000) + 250)
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int(seconds * 1000))
        let tallies = await withTaskGroup(of: DevicePolls.Tally.self) { group in
            for worker in 0..<concurrency {
                let mine = stride(from: worker, to: codes.count, by: concurrency).map { codes[$0] }
                group.addTask {
                    var tally = DevicePolls.Tally()
                    var lastPolls = [ContinuousClock.Instant?](repeating: nil, count: mine.count)
                    var index = 0
                    while ContinuousClock.now < deadline {
                        if let last = lastPolls[index], ContinuousClock.now < last + pause {
                            tally.waits += 1
                            try? await Task.sleep(until: last + pause)
                        }
                        lastPolls[index] = .now
                        do {
                            tally.answers[try await device.poll(mine[index]), default: 0] += 1
                        } catch {
                            tally.fail(error)
                        }
                        index = (index + 1) % mine.count
                    }
                    return tally
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let elapsed = ContinuousClock.now - started
        try await http.shutdown()
        var polls = DevicePolls(devices: codes.count, concurrency: concurrency, intervalSeconds: intervalSeconds)
        for tally in tallies { polls.add(tally) }
        polls.finish(elapsed: elapsed)
        let json = try polls.json()
        if let output {
            try json.write(to: URL(fileURLWithPath: output))
        } else {
            print(String(decoding: json, as: UTF8.self))
        }
        guard polls.polls > 0 else { throw DriverError("no poll was answered: \(polls.failureSamples.joined(separator: "; "))") }
    }
}
