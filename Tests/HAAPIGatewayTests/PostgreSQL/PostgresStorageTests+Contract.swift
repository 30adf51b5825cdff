import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

/// PostgreSQL as the storage contract runs it: each place a fresh database on the suite's server, with its clock
/// (``StorageTestDatabase``), and a key of its own; each storage opened there a ``PostgresStorage`` reading that clock,
/// its database running and its tables prepared, as the gateway's.
struct PostgresContractBackend: StorageContractBackend {
    struct Place: StorageContractPlace {
        let database: StorageTestDatabase
        let key = SessionEncryptionKey.random()

        var clock: TestClock { database.clock }

        func withStorage<Value: Sendable>(_ body: (any GatewayStorage) async throws -> Value) async throws -> Value {
            let clock = clock
            let settings = PostgresStoreSettings(url: try database.url(), encryptionKeys: [key])
            let storage = try PostgresStorage(settings: settings, spoolFile: nil, clock: .reading { clock.date }, logger: StorageContract.silent)
            let running = Task { try await storage.sessions.database.run() }
            do {
                try await storage.sessions.database.prepareSchema()
                try await storage.prepare()
                let value = try await body(storage)
                await StorageTestDatabase.end(running)
                return value
            } catch {
                await StorageTestDatabase.end(running)
                throw error
            }
        }
    }

    func makePlace() async throws -> any StorageContractPlace { Place(database: try await StorageTestDatabase.make()) }
    var keepsOutcomeWithApproval: Bool { true }
}

extension PostgresStorageTests {
    /// The storage contract (``StorageContract``) run against PostgreSQL (``PostgresContractBackend``).
    @Suite("The storage contract: PostgreSQL")
    struct Contract {
        @Test("every check of the storage contract", arguments: StorageContract.checks)
        func contract(_ check: StorageContractCheck) async throws { try await check.run(PostgresContractBackend()) }
    }
}
