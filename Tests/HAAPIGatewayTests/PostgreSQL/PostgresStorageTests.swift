import Foundation
import Logging
import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

/// The PostgreSQL layer against a real server of the suite's own (`initdb` into a temporary directory): sessions,
/// the callback outbox, the tables. Each test has a database of its own and a clock it moves by hand.
@Suite(
    "PostgreSQL storage",
    .postgresServer,
    .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)")
)
struct PostgresStorageTests {}

/// A fresh database on the suite's server, with a clock the test moves.
struct StorageTestDatabase {
    let server: PostgresTestServer
    let name: String
    let clock = TestClock()

    static let silent = Logger(label: "storage-test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func make() async throws -> StorageTestDatabase {
        let server = try #require(PostgresTestServer.current, "the suite runs inside .postgresServer")
        return StorageTestDatabase(server: server, name: try await server.createDatabase())
    }

    func url(user: String? = nil, password: String? = nil) throws -> PostgresURL {
        try PostgresURL.parse(server.url(database: name, user: user, password: password)).get()
    }

    /// A database handle (running, tables prepared unless `prepare` is false) under `keys`, for the time of `body`.
    func withDatabase<Value>(
        keys: [SessionEncryptionKey],
        user: String? = nil,
        password: String? = nil,
        prepare: Bool = true,
        poolOnly: Bool = false,
        logger: Logger = StorageTestDatabase.silent,
        _ body: (PostgresDatabase) async throws -> Value
    ) async throws -> Value {
        var options = PostgresDatabase.Options()
        options.maximumConnections = 4
        options.operationTimeout = .seconds(20)
        let clock = self.clock
        let database = PostgresDatabase(
            url: try url(user: user, password: password),
            cipher: try #require(SessionCipher(keys: keys)),
            clock: .reading { clock.date },
            options: options,
            logger: logger
        )
        // `run()` prepares the tables too (and stops on tables it cannot use); `poolOnly` runs just the pool.
        let running = Task { if poolOnly { await database.client.run() } else { try await database.run() } }
        do {
            if prepare { try await database.prepareSchema() }
            let value = try await body(database)
            await Self.end(running)
            return value
        } catch {
            await Self.end(running)
            throw error
        }
    }

    /// Cancels a database's run and waits for it to end, at most 30 s: one that does not end is recorded as a warning
    /// naming it (the test's own checks have passed by then), and left behind. A whole run once sat idle for good after
    /// "Session claims in PostgreSQL" › a claimed session is busy … had started (every thread idle, the test never
    /// ending), and this wait was its one await without a bound. Under a full run's load on two cores, postgres-nio's
    /// `PostgresClient.run()` has twice outlasted the 30 s after its cancellation (2026-11-27); the gateway's own stop
    /// bounds that wait with `server.stopSeconds` and says what had not closed (``PostgresDatabase/stopReport``).
    static func end(_ running: Task<Void, any Error>) async {
        running.cancel()
        let ended = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = FirstAnswer(continuation)
            Task {
                _ = await running.result
                answer.give(true)
            }
            Task {
                try? await Task.sleep(for: .seconds(30))
                answer.give(false)
            }
        }
        if !ended { Issue.record("PostgresDatabase.run() did not end within 30 s of its task's cancellation", severity: .warning) }
    }

    /// Resumes a continuation once, with the first answer given.
    private final class FirstAnswer: Sendable {
        private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

        init(_ continuation: CheckedContinuation<Bool, Never>) {
            self.continuation = Mutex(continuation)
        }

        func give(_ value: Bool) {
            continuation.withLock { $0.take() }?.resume(returning: value)
        }
    }

    /// Session storage under `keys`, for the time of `body`.
    func withStorage<Value>(keys: [SessionEncryptionKey], _ body: (PostgresSessionStorage) async throws -> Value) async throws -> Value {
        try await withDatabase(keys: keys) { try await body(PostgresSessionStorage(database: $0)) }
    }

    /// `psql` in this database.
    @discardableResult
    func sql(_ statement: String) async throws -> String {
        try await server.psql(statement, database: name).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
