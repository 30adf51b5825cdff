import Foundation

/// What a `sign-in-rate` run counted: sign-ins completed and failed over the measured time, through which gateways,
/// and the first few distinct failures.
struct SignInRate: Codable {
    let gateways: [String]
    let concurrency: Int
    /// From the start of the measured part to the end of the last sign-in under way at its deadline.
    var seconds: Double = 0
    var signIns = 0
    var failures = 0
    var signInsPerSecond: Double = 0
    /// The median duration of a completed sign-in (its four steps), in milliseconds.
    var signInMedianMilliseconds: Double?
    var failureSamples: [String] = []

    init(gateways: [String], concurrency: Int) {
        self.gateways = gateways
        self.concurrency = concurrency
    }

    /// Adds one worker's tally.
    mutating func add(_ tally: Tally) {
        signIns += tally.durations.count
        failures += tally.failures
        for sample in tally.failureSamples where failureSamples.count < Self.samples && !failureSamples.contains(sample) {
            failureSamples.append(sample)
        }
    }

    /// Sets the rate and the median over `durations` (every worker's) for `elapsed`.
    mutating func finish(elapsed: Duration, durations: [Duration]) {
        seconds = SignInTimings.microseconds(elapsed) / 1e6
        signInsPerSecond = seconds > 0 ? Double(signIns) / seconds : 0
        let sorted = durations.sorted()
        if !sorted.isEmpty {
            let middle = sorted.count / 2
            let median = sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
            signInMedianMilliseconds = SignInTimings.microseconds(median) / 1000
        }
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    static let samples = 5

    /// One worker's sign-ins: each completed one's duration, and the failures.
    struct Tally: Sendable {
        var durations: [Duration] = []
        var failures = 0
        var failureSamples: [String] = []

        mutating func fail(_ error: any Error) {
            failures += 1
            let text = "\(error)"
            if failureSamples.count < SignInRate.samples, !failureSamples.contains(text) { failureSamples.append(text) }
        }
    }
}
