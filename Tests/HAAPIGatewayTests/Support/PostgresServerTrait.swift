import GatewayTestSupport
import Testing

/// Runs a suite inside a PostgreSQL server of its own (``PostgresTestServer``), shared by its tests as
/// `PostgresTestServer.current`; the server is stopped and its directory deleted when the suite ends, whether its tests
/// passed or not.
struct PostgresServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try await PostgresTestServer.start()
        do {
            try await PostgresTestServer.$current.withValue(server) { try await function() }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

extension Trait where Self == PostgresServerTrait {
    /// A PostgreSQL server for the suite's tests.
    static var postgresServer: Self { PostgresServerTrait() }
}
