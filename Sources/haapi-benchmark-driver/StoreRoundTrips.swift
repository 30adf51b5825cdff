import Foundation

/// Durations of the PostgreSQL storage layer's statements in microseconds, one entry per round
/// (``StoreRoundTripsCommand``).
struct StoreRoundTrips: Codable {
    var claim: [Double] = []
    var save: [Double] = []
    var load: [Double] = []
    /// The process's CPU time (all threads) in microseconds over each statement, one entry per round.
    var cpu: [String: [Double]] = ["claim": [], "save": [], "load": []]

    mutating func append(claim: Duration, save: Duration, load: Duration) {
        self.claim.append(SignInTimings.microseconds(claim))
        self.save.append(SignInTimings.microseconds(save))
        self.load.append(SignInTimings.microseconds(load))
    }

    mutating func appendCPU(claim: Duration, save: Duration, load: Duration) {
        cpu["claim", default: []].append(SignInTimings.microseconds(claim))
        cpu["save", default: []].append(SignInTimings.microseconds(save))
        cpu["load", default: []].append(SignInTimings.microseconds(load))
    }

    func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url)
    }
}
