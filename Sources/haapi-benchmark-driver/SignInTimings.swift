import Foundation

/// Step durations of paired sign-ins in microseconds: `direct[i][s]` and `gateway[i][s]` are step `s` of round `i`;
/// `exchange[i]` is one plain HTTP exchange with the gateway in round `i` (`GET /healthz`: what the browser's extra
/// request after each post costs on this machine before the gateway does any work), with the CPU time each part of a
/// round cost (``cpu``).
struct SignInTimings: Codable {
    static let stepNames = ["open (authorize, selector)", "choose username and password", "submit credentials", "continue (code exchange)"]

    var steps = Self.stepNames
    var direct: [[Double]] = []
    var gateway: [[Double]] = []
    var exchange: [Double] = []
    /// Each round's CPU time of the client (this process) and, when its process id was given, of the gateway, for the
    /// direct sign-in, the one through the gateway and the plain exchange.
    var cpu: [RoundCPU] = []

    /// One round's durations and CPU times.
    mutating func append(direct: [Duration], gateway: [Duration], exchange: Duration, cpu: RoundCPU) {
        self.direct.append(direct.map(Self.microseconds))
        self.gateway.append(gateway.map(Self.microseconds))
        self.exchange.append(Self.microseconds(exchange))
        self.cpu.append(cpu)
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
