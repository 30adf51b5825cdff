import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    @Suite("PostgreSQL tables: creation, versions, the operators' schema file")
    struct Schema {
        let key = SessionEncryptionKey.random()

        @Test("four gateways starting at once on an empty database all prepare it; the tables and the version row are made once")
        func concurrentCreation() async throws {
            let database = try await StorageTestDatabase.make()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await database.withDatabase(keys: [key], prepare: false) { handle in try await handle.prepareSchema() }
                    }
                }
                try await group.waitForAll()
            }
            #expect(
                try await database.sql("SELECT count(*) || ' ' || max(version) FROM haapi_gateway_schema") == "1 \(PostgresSchema.currentVersion)"
            )
            #expect(
                try await database.sql("SELECT string_agg(tablename, ' ' ORDER BY tablename) FROM pg_tables WHERE tablename LIKE 'haapi_gateway_%'")
                    == "haapi_gateway_device_authorizations haapi_gateway_device_tokens haapi_gateway_outbox haapi_gateway_schema haapi_gateway_sessions haapi_gateway_sign_in_outcomes haapi_gateway_sign_in_starts haapi_gateway_upstream_facts haapi_gateway_used_start_links haapi_gateway_wrong_user_codes"
            )
            try await database.withStorage(keys: [key]) { storage in
                try await storage.insert(
                    id: "s",
                    document: [1],
                    lifetimes: SessionLifetimes(absolute: .seconds(60), idle: .seconds(60)),
                    address: nil
                )
                #expect(try await storage.count() == 1)
            }
        }

        /// Issue #38: on a machine loaded by the whole suite the preparation of four gateways at once ran past its 30 s.
        /// Each held the preparation lock across its transaction's round trips to the gateway (23 to create the tables,
        /// 4 to find them made) while the others waited for it: the time was the loaded gateways answering late, not the
        /// database's work. A link that hands every answer over 1 s late makes that lateness certain: held across round
        /// trips, the lock is held 22 s by the gateway that creates the tables alone; held only while the database runs
        /// the preparation, each gateway needs three round trips of its own (its connection opened before).
        @Test(
            "four gateways starting at once whose database answers come 1 s late (a loaded machine) all prepare an empty database within 20 s: the preparation lock is held only while the database runs the preparation"
        )
        func concurrentCreationOverASlowLink() async throws {
            let database = try await StorageTestDatabase.make()
            let relay = try await DelayingTCPRelay.start(to: database.server.port, delay: .seconds(1))
            let server = database.server
            let url = try PostgresURL.parse("postgres://\(server.user):\(server.password)@127.0.0.1:\(relay.port)/\(database.name)?sslmode=disable")
                .get()
            var options = PostgresDatabase.Options()
            options.maximumConnections = 4
            options.operationTimeout = .seconds(60)
            options.preparationTimeout = .seconds(20)
            let handles = try (0..<4).map { _ in
                PostgresDatabase(url: url, cipher: try #require(SessionCipher(keys: [key])), options: options, logger: StorageTestDatabase.silent)
            }
            let pools = handles.map { handle in
                Task {
                    await withDiscardingTaskGroup { group in
                        group.addTask { await handle.client.run() }
                        group.addTask { await handle.asynchronousClient.run() }
                    }
                }
            }
            // Each gateway's connection is open before they start (opening one takes three round trips of its own).
            try await withThrowingTaskGroup(of: Void.self) { group in
                for handle in handles { group.addTask { _ = try await handle.perform("connect") { try await $0.query("SELECT 1").collect() } } }
                try await group.waitForAll()
            }
            let started = ContinuousClock.now
            let outcomes = await withTaskGroup(of: PostgresStorageError?.self) { group in
                for handle in handles {
                    group.addTask {
                        do throws(PostgresStorageError) {
                            try await handle.prepareSchema()
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let elapsed = ContinuousClock.now - started
            for pool in pools { pool.cancel() }
            for pool in pools { await pool.value }
            await relay.stop()
            #expect(outcomes.compactMap { $0 }.isEmpty, "every gateway prepared the tables (in \(elapsed)): \(outcomes.compactMap { $0 })")
            #expect(
                try await database.sql("SELECT count(*) || ' ' || max(version) FROM haapi_gateway_schema") == "1 \(PostgresSchema.currentVersion)"
            )
            #expect(try await database.sql("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'haapi_gateway_%'") == "10")
        }

        @Test("tables newer than this gateway knows: preparing fails with newer_schema, and running stops with one line (exit 78)")
        func newerSchemaIsRefused() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { _ in }
            try await database.sql("UPDATE haapi_gateway_schema SET version = \(PostgresSchema.currentVersion + 1)")
            try await database.withDatabase(keys: [key], prepare: false, poolOnly: true) { handle in
                do throws(PostgresStorageError) {
                    try await handle.prepareSchema()
                    Issue.record("a newer schema was accepted")
                } catch {
                    #expect(error.code == .newerSchema)
                }
            }
            var options = PostgresDatabase.Options()
            options.maximumConnections = 2
            let handle = PostgresDatabase(
                url: try database.url(),
                cipher: try #require(SessionCipher(keys: [key])),
                options: options,
                logger: StorageTestDatabase.silent
            )
            do {
                // run() stops by itself; were it to go on, it is stopped after 60 s (a bound so that the test fails, not hangs).
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await handle.run() }
                    group.addTask { try await Task.sleep(for: .seconds(60)) }
                    try await group.next()
                    group.cancelAll()
                }
                Issue.record("run() went on with a newer schema")
            } catch let failure as StartupFailure {
                #expect(failure.exitStatus == StartupFailure.configurationStatus)
                #expect(!failure.message.contains("\n"))
                #expect(
                    failure.message.contains(
                        "schema version \(PostgresSchema.currentVersion + 1), newer than this gateway's \(PostgresSchema.currentVersion)"
                    )
                )
                #expect(!failure.message.contains(database.server.password), "no password in the line")
            }
        }

        @Test("tables of schema version 1 holding a session are migrated in place: the session still loads, and can be claimed")
        func migratesVersionOne() async throws {
            let database = try await StorageTestDatabase.make()
            let lifetimes = SessionLifetimes(absolute: .seconds(600), idle: .seconds(600))
            try await database.withStorage(keys: [key]) { storage in
                _ = try await storage.insert(id: "before", document: [1, 2, 3], lifetimes: lifetimes, address: nil)
            }
            // Back to version 1 as an earlier gateway left it: without the columns version 2 added.
            try await database.sql(
                """
                ALTER TABLE haapi_gateway_sessions DROP COLUMN used_at, DROP COLUMN claimed_by, DROP COLUMN claimed_until;
                UPDATE haapi_gateway_schema SET version = 1;
                """
            )
            try await database.withStorage(keys: [key]) { (storage: PostgresSessionStorage) async throws in
                #expect(try await storage.load(id: "before") == .found(StoredSession(document: [1, 2, 3], version: 1)))
                #expect(
                    try await storage.claim(id: "before", claim: "c", lease: .seconds(10))
                        == .claimed(StoredSession(document: [1, 2, 3], version: 1))
                )
                #expect(try await storage.claim(id: "before", claim: "d", lease: .seconds(10)) == .busy)
            }
            #expect(
                try await database.sql("SELECT count(*) || ' ' || max(version) FROM haapi_gateway_schema") == "1 \(PostgresSchema.currentVersion)"
            )
        }

        @Test("tables of schema version 2 are migrated in place: the upstream facts table is added, the sessions kept")
        func migratesVersionTwo() async throws {
            let database = try await StorageTestDatabase.make()
            let lifetimes = SessionLifetimes(absolute: .seconds(600), idle: .seconds(600))
            try await database.withStorage(keys: [key]) { storage in
                _ = try await storage.insert(id: "before", document: [4, 5], lifetimes: lifetimes, address: nil)
            }
            try await database.sql("DROP TABLE haapi_gateway_upstream_facts; UPDATE haapi_gateway_schema SET version = 2;")
            try await database.withDatabase(keys: [key]) { handle in
                #expect(try await PostgresSessionStorage(database: handle).load(id: "before") == .found(StoredSession(document: [4, 5], version: 1)))
                let upstream = UpstreamFactKey(issuer: "https://idsvr.example/oauth/v2/oauth-anonymous", clientID: "gateway")
                try await PostgresUpstreamFacts(database: handle).record(.proofRequired, for: upstream)
                #expect(try await PostgresUpstreamFacts(database: handle).finding(for: upstream) == .proofRequired)
            }
            #expect(
                try await database.sql("SELECT count(*) || ' ' || max(version) FROM haapi_gateway_schema") == "1 \(PostgresSchema.currentVersion)"
            )
        }

        @Test(
            "tables of an older version and a gateway user that may not create tables: preparing them fails with one line that says to run docs/postgres-schema.sql and grant what it says; the same on an empty database"
        )
        func aUserThatMayNotCreateTablesIsToldWhatToDo() async throws {
            let database = try await StorageTestDatabase.make()
            // Roles belong to the whole server, which the suites share: a name of this test's own.
            let role = "limited_\(UInt32.random(in: 0...UInt32.max))"
            let older = PostgresSchema.currentVersion - 1
            let statements = [PostgresSchema.createSchemaTable] + (1...older).flatMap { PostgresSchema.migrations[$0] ?? [] }
            try await database.sql(statements.joined(separator: ";\n") + ";\nINSERT INTO haapi_gateway_schema (version) VALUES (\(older));")
            try await database.sql(
                """
                CREATE ROLE \(role) LOGIN PASSWORD 'limited-password';
                REVOKE CREATE ON SCHEMA public FROM PUBLIC;
                GRANT SELECT ON haapi_gateway_schema TO \(role);
                GRANT SELECT, INSERT, UPDATE, DELETE ON haapi_gateway_sessions, haapi_gateway_outbox TO \(role);
                """
            )
            // The pool only: run() would prepare too, and its refusal ends the pool under this preparation's connection
            // ("clientClosedConnection" instead of the line, on a loaded machine).
            try await database.withDatabase(keys: [key], user: role, password: "limited-password", prepare: false, poolOnly: true) { handle in
                let error = await #expect(throws: PostgresStorageError.self) { try await handle.prepareSchema() }
                #expect(
                    error?.message
                        == "the gateway's database user may not create or change its tables (schema version \(older) → \(PostgresSchema.currentVersion)): run docs/postgres-schema.sql once as a user that may, and grant the gateway's user what its comments say (SQLSTATE 42501)"
                )
            }
            #expect(try await database.sql("SELECT max(version) FROM haapi_gateway_schema") == "\(older)", "nothing changed")

            let empty = try await StorageTestDatabase.make()
            try await empty.sql("REVOKE CREATE ON SCHEMA public FROM PUBLIC;")  // the role is the server's already
            try await empty.withDatabase(keys: [key], user: role, password: "limited-password", prepare: false, poolOnly: true) { handle in
                let error = await #expect(throws: PostgresStorageError.self) { try await handle.prepareSchema() }
                #expect(
                    error?.message.contains("(none yet, version \(PostgresSchema.currentVersion) needed): run docs/postgres-schema.sql") == true,
                    "\(String(describing: error))"
                )
            }
        }

        @Test("docs/postgres-schema.sql holds every statement of PostgresSchema, and a gateway whose user may not create tables uses what it made")
        func operatorsSchemaFile() async throws {
            let file = Repository.root.appendingPathComponent("docs/postgres-schema.sql")
            let text = try String(contentsOf: file, encoding: .utf8)
            let normalized = { (sql: String) in sql.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            for statement in [PostgresSchema.createSchemaTable] + (1...PostgresSchema.currentVersion).flatMap({ PostgresSchema.migrations[$0] ?? [] })
            {
                #expect(normalized(text).contains(normalized(statement) + ";"), "missing from the file: \(statement)")
            }
            let database = try await StorageTestDatabase.make()
            try await database.server.psql(file: file, database: database.name)
            try await database.server.psql(file: file, database: database.name)  // idempotent
            try await database.sql(
                """
                CREATE ROLE limited LOGIN PASSWORD 'limited-password';
                GRANT SELECT ON haapi_gateway_schema TO limited;
                GRANT SELECT, INSERT, UPDATE, DELETE ON haapi_gateway_sessions, haapi_gateway_outbox, haapi_gateway_upstream_facts,
                    haapi_gateway_device_authorizations, haapi_gateway_used_start_links, haapi_gateway_sign_in_starts, haapi_gateway_device_tokens,
                    haapi_gateway_sign_in_outcomes, haapi_gateway_wrong_user_codes TO limited;
                """
            )
            try await database.withDatabase(keys: [key], user: "limited", password: "limited-password") { handle in
                let storage = PostgresSessionStorage(database: handle)
                try await storage.insert(
                    id: "s",
                    document: [7],
                    lifetimes: SessionLifetimes(absolute: .seconds(60), idle: .seconds(60)),
                    address: nil
                )
                #expect(try await storage.load(id: "s") == .found(StoredSession(document: [7], version: 1)))
                let outcome = SignInOutcomeNote(signIn: "sign-in-1", outcome: "success")
                try await PostgresOutbox(database: handle).enqueue(
                    [OutboxDelivery(id: "d", sink: "file:/x", outcome: "success", document: [1])],
                    claimingFor: nil,
                    ending: outcome
                )
                let refused = try await PostgresOutbox(database: handle).enqueue(
                    [OutboxDelivery(id: "e", sink: "file:/x", outcome: "error", document: [2])],
                    claimingFor: nil,
                    ending: SignInOutcomeNote(signIn: "sign-in-1", outcome: "error")
                )
                #expect(refused == "success", "the outcome note's upsert, with the grants the file names")
                let facts = PostgresUpstreamFacts(database: handle)
                let upstream = UpstreamFactKey(issuer: "https://idsvr.example/oauth/v2/oauth-anonymous", clientID: "gateway")
                try await facts.record(.proofRequired, for: upstream)
                try await facts.record(.proofRequired, for: upstream)  // the upsert, with the grants the file names
                #expect(try await facts.finding(for: upstream) == .proofRequired)
                let wrongCodes = PostgresUserCodeAttemptLimiter(
                    database: handle,
                    settings: .fixed(DeviceSettings()),
                    logger: StorageTestDatabase.silent
                )
                try await wrongCodes.recordWrongCode(address: "198.51.100.1")
                #expect(try await wrongCodes.retryAfter(address: "198.51.100.1") == nil, "counted, with the grants the file names")
            }
            #expect(
                try await database.sql("SELECT count(*) || ' ' || max(version) FROM haapi_gateway_schema") == "1 \(PostgresSchema.currentVersion)"
            )
        }
    }
}
