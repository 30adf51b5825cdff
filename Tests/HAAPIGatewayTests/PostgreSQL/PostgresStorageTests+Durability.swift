import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    /// `sessions.synchronousCommit`: which commits wait for the database's disk, as the server reports it.
    @Suite("Durability of sign-in rows")
    struct Durability {
        @Test(
            "by default the pool of sign-in rows commits without waiting for the disk and the other pool waits; with synchronousCommit both wait"
        )
        func synchronousCommitPerPool() async throws {
            let database = try await StorageTestDatabase.make()
            // The suite's server does not wait for its disk (it is thrown away); this database does, as a production one.
            try await database.sql("ALTER DATABASE \(database.name) SET synchronous_commit = on")
            var settings: [Bool: [String]] = [:]
            for synchronous in [false, true] {
                var options = PostgresDatabase.Options()
                options.synchronousCommit = synchronous
                options.maximumConnections = 4
                options.operationTimeout = .seconds(20)
                let handle = PostgresDatabase(
                    url: try database.url(),
                    cipher: try #require(SessionCipher(keys: [.random()])),
                    options: options,
                    logger: StorageTestDatabase.silent
                )
                let running = Task { try await handle.run() }
                var reported: [String] = []
                for commit in [PostgresDatabase.Commit.asynchronous, .durable] {
                    reported.append(
                        try await handle.perform("show synchronous_commit", commit: commit) { client in
                            try await client.query("SHOW synchronous_commit").decode(String.self).first { _ in true } ?? "?"
                        }
                    )
                }
                running.cancel()
                _ = await running.result
                settings[synchronous] = reported
            }
            #expect(settings[false] == ["off", "on"])
            #expect(settings[true] == ["on", "on"])
        }
    }
}
