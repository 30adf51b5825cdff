import Foundation

/// What a `device-polls` run counted: polls answered, by answer (`authorization_pending`, `slow_down`, …), over the
/// measured time, the polls that failed (no OAuth answer), and how often a worker had to wait for a device's interval.
struct DevicePolls: Codable {
    let devices: Int
    let concurrency: Int
    let intervalSeconds: Double
    /// From the start to the end of the last poll under way at the deadline.
    var seconds: Double = 0
    var polls = 0
    var pollsPerSecond: Double = 0
    var answers: [String: Int] = [:]
    var failures = 0
    var failureSamples: [String] = []
    /// Polls held back until their device's interval had passed (none when there are devices enough for the rate).
    var waits = 0

    init(devices: Int, concurrency: Int, intervalSeconds: Double) {
        self.devices = devices
        self.concurrency = concurrency
        self.intervalSeconds = intervalSeconds
    }

    /// Adds one worker's tally.
    mutating func add(_ tally: Tally) {
        polls += tally.answers.values.reduce(0, +)
        answers.merge(tally.answers, uniquingKeysWith: +)
        failures += tally.failures
        waits += tally.waits
        for sample in tally.failureSamples where failureSamples.count < 5 && !failureSamples.contains(sample) { failureSamples.append(sample) }
    }

    /// Sets the rate for `elapsed`.
    mutating func finish(elapsed: Duration) {
        seconds = SignInTimings.microseconds(elapsed) / 1e6
        pollsPerSecond = seconds > 0 ? Double(polls) / seconds : 0
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// One worker's polls: the answers counted by code, the failures, and its waits for an interval.
    struct Tally: Sendable {
        var answers: [String: Int] = [:]
        var failures = 0
        var failureSamples: [String] = []
        var waits = 0

        mutating func fail(_ error: any Error) {
            failures += 1
            let text = "\(error)"
            if failureSamples.count < 5, !failureSamples.contains(text) { failureSamples.append(text) }
        }
    }
}
