import Testing

/// The command tests that take whole gateways through failures and deployment recipes, one test at a time: each starts
/// several processes (gateways, demo servers, PostgreSQL servers, mount namespaces) and stops or freezes some of them.
/// Beside every other suite on a two-core machine, several of them at once held the processor long enough for
/// time-bound tests elsewhere to fail. Their suites are nested here and inherit `.serialized`.
@Suite("Whole gateways through failures and deployments, one test at a time", .serialized)
struct WholeGatewaysOneAtATime {}
