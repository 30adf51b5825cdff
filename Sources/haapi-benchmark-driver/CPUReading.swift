/// CPU time so far of the benchmark's client (this process) and of the gateway (nil when it is not read).
struct CPUReading {
    let client: Duration
    let gateway: Duration?

    /// The CPU time spent between two readings.
    static func - (after: CPUReading, before: CPUReading) -> CPUSpent {
        CPUSpent(
            clientMicroseconds: SignInTimings.microseconds(after.client - before.client),
            gatewayMicroseconds: after.gateway.flatMap { end in before.gateway.map { SignInTimings.microseconds(end - $0) } }
        )
    }
}
