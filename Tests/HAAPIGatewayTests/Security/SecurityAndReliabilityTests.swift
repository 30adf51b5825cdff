import Testing

/// The security and reliability suites that each run whole gateways (with a demo upstream, proxies, receivers):
/// nested here so that they run one test at a time beside the rest of the suite, keeping a loaded machine's
/// timeouts out of their results.
@Suite("Security and reliability", .serialized)
enum SecurityAndReliabilityTests {}
