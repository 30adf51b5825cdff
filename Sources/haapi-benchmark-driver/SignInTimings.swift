import Foundation

/// Step durations of paired sign-ins in microseconds: `direct[i][s]` and `gateway[i][s]` are step `s` of round `i`;
/// `exchange[i]` is one plain HTTP exchange with the gateway in round `i` (`GET /healthz`: what the browser's extra
/// request after each post costs on this machine before the gateway does any work).
struct SignInTimings: Codable {
    static let stepNames = ["open (authorize, selector)", "choose username and password", "submit credentials", "continue (code exchange)"]

    var steps = Self.stepNames
    var direct: [[Double]] = []
    var gateway: [[Double]] = []
    var exchange: [Double] = []

    mutating func append(direct: [Duration], gateway: [Duration], exchange: Duration) {
        self.direct.append(direct.map(Self.microseconds))
        self.gateway.append(gateway.map(Self.microseconds))
        self.exchange.append(Self.microseconds(exchange))
    }

    func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url)
    }

    static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
