import ArgumentParser

/// The load driver of the macro benchmark (`scripts/benchmark` runs it): sign-ins driven directly with the HAAPI
/// library and through the gateway as a browser, browser sign-ins through several gateways in turn, sign-ins per second
/// with many browsers at once (over replicas in round robin), many open sessions, and the PostgreSQL session store's
/// statements alone, and devices (RFC 8628) asking for codes and polling with them. Only loopback addresses are accepted.
@main
struct BenchmarkDriverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haapi-benchmark-driver",
        abstract: "Drive the gateway and the demo upstream for scripts/benchmark (loopback only).",
        subcommands: [
            SignInsCommand.self, CompareGatewaysCommand.self, SignInRateCommand.self, OpenSessionsCommand.self, StoreRoundTripsCommand.self,
            StartDevicesCommand.self, DevicePollsCommand.self,
        ]
    )
}
