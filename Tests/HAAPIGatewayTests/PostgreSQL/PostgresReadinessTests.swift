import Foundation
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

/// Readiness and failures when the database goes away: a server of the test's own, stopped in the middle.
@Suite(
    "PostgreSQL readiness and an unreachable database",
    .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)"),
    .startsPrograms()
)
struct PostgresReadinessTests {
    @Test("ready while the server runs; when it stops, readiness fails within its time limit and operations fail as values naming no password")
    func readinessFollowsTheServer() async throws {
        let server = try await PostgresTestServer.start()
        do {
            let name = try await server.createDatabase()
            let capture = LogCapture()
            var options = PostgresDatabase.Options()
            options.maximumConnections = 2
            // Limits a loaded CI machine meets while the server runs (a fresh server's first connections can take seconds);
            // once it is stopped, readiness and operations fail within them (postgres-nio waits for a connection until
            // the limit, so the checks below take up to these limits).
            options.readinessTimeout = .seconds(10)
            options.readinessReuse = .zero  // every probe asks the database (by default an answer is reused for a second)
            options.operationTimeout = .seconds(10)
            options.connectTimeout = .seconds(5)
            let database = PostgresDatabase(
                url: try PostgresURL.parse(server.url(database: name)).get(),
                cipher: try #require(SessionCipher(keys: [.random()])),
                options: options,
                logger: capture.logger
            )
            let storage = PostgresSessionStorage(database: database)
            let running = Task { try await storage.run() }
            try await database.prepareSchema()
            // Ready once it has connected: on a loaded machine its first connection can still be on its way (or have
            // timed out, a doubt the next probe settles), so it is asked until ready, naming the last answer.
            var readiness = await storage.readiness()
            let readyBy = ContinuousClock.now + .seconds(60)
            while readiness != .ready, ContinuousClock.now < readyBy {
                try await Task.sleep(for: .milliseconds(200))
                readiness = await storage.readiness()
            }
            #expect(readiness == .ready, "\(readiness)")
            await server.stop()
            guard case .notReady(let reason) = await storage.readiness() else {
                Issue.record("ready with the server stopped")
                running.cancel()
                return
            }
            #expect(!reason.contains(server.password))
            do {
                _ = try await storage.load(id: "anything")
                Issue.record("a load succeeded with the server stopped")
            } catch {
                #expect([.unavailable, .timedOut].contains(error.code), "\(error)")
                #expect(!error.message.contains(server.password))
            }
            running.cancel()
            _ = await running.result
            #expect(!capture.text.contains(server.password))
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A database at a port nothing listens on (a server started and stopped), with `options`.
    static func unreachableDatabase(_ options: PostgresDatabase.Options) async throws -> PostgresDatabase {
        let server = try await PostgresTestServer.start()
        let url = server.url(database: "postgres")
        await server.stop()
        return PostgresDatabase(
            url: try PostgresURL.parse(url).get(),
            cipher: try #require(SessionCipher(keys: [.random()])),
            options: options,
            logger: StorageTestDatabase.silent
        )
    }

    @Test("a database that cannot be reached at start: not ready, naming the failure; the gateway keeps trying instead of stopping")
    func unreachableAtStart() async throws {
        var options = PostgresDatabase.Options()
        options.readinessTimeout = .seconds(1)
        options.operationTimeout = .seconds(1)
        options.preparationTimeout = .seconds(1)
        options.connectTimeout = .seconds(1)
        let database = try await Self.unreachableDatabase(options)
        let running = Task { try await database.run() }
        do {
            try await database.prepareSchema()
            Issue.record("prepared without a server")
        } catch {
            #expect([.unavailable, .timedOut].contains(error.code), "\(error)")
        }
        guard case .notReady(let reason) = await database.readiness() else {
            Issue.record("ready without a server")
            running.cancel()
            return
        }
        #expect(reason.hasPrefix("tables not prepared yet"), "\(reason)")
        running.cancel()
        let result = await running.result
        if case .failure(let error) = result { Issue.record("run() failed instead of retrying: \(error)") }
    }

    /// A replica started while its database refuses connections: `/readyz` says so at once, and so is a person's page
    /// told, rather than after the operation's limit (5 s by default: the first new visitor waited 5.03 s for its 503 while
    /// `/readyz` already said "database unavailable"). The limit here is 20 s, so that asking would show.
    @Test(
        "a database that refuses connections at start: a page's operation is refused at once, as /readyz is, not after its limit; work that must land is asked"
    )
    func aPageIsToldAtOnceWhileTheTablesCannotBePrepared() async throws {
        var options = PostgresDatabase.Options()
        options.connectTimeout = .seconds(10)
        options.operationTimeout = .seconds(20)
        let database = try await Self.unreachableDatabase(options)
        let running = Task { try await database.run() }
        defer { running.cancel() }
        try await database.firstPreparation()
        guard case .notReady(let reason) = await database.readiness() else {
            Issue.record("ready without a server")
            return
        }
        #expect(reason.hasPrefix("tables not prepared yet"), "\(reason)")
        let log = LogCapture()
        let refusal = GatewayError(.storeUnavailable, .sessionStoreUnavailable)
        let started = ContinuousClock.now
        do {
            _ = try await database.storeCall("a page's operation", whileDown: .refuseAtOnce, refusal: refusal, logger: log.logger, failure: "failed")
            {
                () async throws(PostgresStorageError) -> Int in
                try await database.perform("a page's operation") { client in try await client.query("SELECT 1").collect().count }
            }
            Issue.record("answered without a server")
        } catch {
            #expect(error.code == .storeUnavailable, "\(error)")
        }
        // At once: nothing is asked. A second is room for a loaded machine; asking would take the operation's 20 s.
        #expect(ContinuousClock.now - started < .seconds(1), "\(ContinuousClock.now - started)")
        #expect(log.text.contains("not asked, the database cannot serve (tables not prepared yet"), "\(log.text)")
        // Work that must land is asked all the same: its failure is the database's, not a refusal.
        let asking = LogCapture()
        do {
            _ = try await database.storeCall("a hand-over's end", whileDown: .askAnyway, refusal: refusal, logger: asking.logger, failure: "failed") {
                () async throws(PostgresStorageError) -> Int in
                try await database.perform("a hand-over's end", limit: .seconds(2)) { client in try await client.query("SELECT 1").collect().count }
            }
            Issue.record("answered without a server")
        } catch {
            #expect(error.code == .storeUnavailable, "\(error)")
        }
        #expect(asking.text.contains("warning failed"), "\(asking.text)")
        #expect(!asking.text.contains("not asked"), "\(asking.text)")
    }

    /// Readiness of a database at `url` soon after it starts running (asked for at most 60 s): what `/readyz` would say.
    static func readinessSoonAfterStart(_ url: String) async throws -> String {
        var options = PostgresDatabase.Options()
        // Room for a server on a machine loaded by every suite and a build: at 3 s, every attempt of a full run beside a
        // build timed out for 30 s, and the TLS refusal was never seen.
        options.connectTimeout = .seconds(10)
        options.readinessReuse = .zero
        let database = PostgresDatabase(
            url: try PostgresURL.parse(url).get(),
            cipher: try #require(SessionCipher(keys: [.random()])),
            options: options,
            logger: StorageTestDatabase.silent
        )
        let started = ContinuousClock.now
        let running = Task { try await database.run() }
        defer { running.cancel() }
        // Asked until it says more than "tables not prepared yet" (for at most 60 s: before this change the pool's time-out
        // was all it said, and only after the operation's limit). A connection attempt that timed out is asked past, in
        // either of its words ("no answer from … within 10 s" when the probe's own limit ran out, "no answer from … (a
        // firewall …)" when the connection's did): on a test machine busy with every suite at once, an attempt may take
        // longer than it is given.
        var said = "nothing said"
        while ContinuousClock.now - started < .seconds(60) {
            if case .notReady(let reason) = await database.readiness(), reason != "tables not prepared yet" {
                said = reason
                if !reason.contains("no answer from") { return reason }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return said
    }

    @Test(
        "what stops a connection is named within seconds in readiness: TLS not offered for a URL without sslmode, a refused password, an unknown database, nothing listening"
    )
    func connectionFailuresAreNamed() async throws {
        let server = try await PostgresTestServer.start()
        do {
            let base = "postgres://\(server.user):\(server.password)@127.0.0.1:\(server.port)"
            let noSSLMode = try await Self.readinessSoonAfterStart(base + "/postgres")
            #expect(
                noSSLMode.contains(
                    "does not offer TLS, and sslmode=verify-full requires it (verify-full is what a URL without sslmode means): turn TLS on at the server, or, for a server on this machine or a network you trust, add ?sslmode=disable"
                ),
                "\(noSSLMode)"
            )
            let password = try await Self.readinessSoonAfterStart(
                "postgres://\(server.user):wrong-password@127.0.0.1:\(server.port)/postgres?sslmode=disable"
            )
            #expect(password.contains("refused the password of user \(server.user)"), "\(password)")
            #expect(!password.contains("wrong-password"))
            let database = try await Self.readinessSoonAfterStart(base + "/no_such_database?sslmode=disable")
            #expect(database.contains("the database no_such_database does not exist"), "\(database)")
            await server.stop()
            let nothing = try await Self.readinessSoonAfterStart(base + "/postgres?sslmode=disable")
            #expect(nothing.contains("nothing listens at 127.0.0.1:\(server.port) (connection refused)"), "\(nothing)")
        } catch {
            await server.stop()
            throw error
        }
    }
}
