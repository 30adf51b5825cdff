import Foundation

/// Step durations of browser sign-ins through several gateways in microseconds: `timings[g][i][s]` is step `s` of round
/// `i` through `gateways[g]`.
struct GatewayComparison: Codable {
    var steps = SignInTimings.stepNames
    let gateways: [String]
    var timings: [[[Double]]]

    init(gateways: [String]) {
        self.gateways = gateways
        timings = gateways.map { _ in [] }
    }

    /// One round: `round[g]` is the sign-in through `gateways[g]`.
    mutating func append(_ round: [[Duration]]) {
        for (gateway, steps) in round.enumerated() {
            timings[gateway].append(steps.map(SignInTimings.microseconds))
        }
    }

    func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url)
    }
}
