import Foundation
import HAAPIGateway
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The PostgreSQL database behind ``PostgresSessionStorage`` and ``PostgresOutbox``: two PostgresNIO connection pools
/// (``Commit``), the cipher that seals every stored document, whose clock expiry and leases compare against, and the
/// tables (``PostgresSchema``), created or migrated when it starts.
///
/// Run it (``run()``) for as long as it is used: it runs the pool and prepares the tables, retrying while the database
/// cannot be reached (1, 2, 4, 8, then every 15 s). A database whose tables are newer than this gateway knows, that
/// refuses the credentials, or that refuses to create the tables stops it with one clear line. Every operation is
/// bounded by ``Options/operationTimeout`` and fails as a ``PostgresStorageError`` value, never a crash.
package final class PostgresDatabase: Service, Sendable {
    private enum SchemaState: Sendable {
        case unprepared(lastFailure: String?)
        case prepared
        case refused(String)
    }

    let client: PostgresClient
    /// The pool of ``Commit/asynchronous`` statements.
    let asynchronousClient: PostgresClient
    let cipher: SessionCipher
    let clock: StorageClock
    /// Times out every operation (``Options/operationTimeout``).
    let deadlines = OperationDeadlines()
    let options: Options
    let logger: Logger
    /// The database's URL without its password, for log lines.
    let name: String
    /// Where the database is, for ``PostgresConnectionProbe``.
    let url: PostgresURL
    private let schemaState = Mutex<SchemaState>(.unprepared(lastFailure: nil))
    /// Whether ``run()``'s first attempt to prepare the tables has ended, whichever way (``firstPreparation(within:)``).
    private let firstAttemptEnded = Mutex(false)
    /// Where ``run()`` is: not started, running, closing the pools (a graceful shutdown began and they have not ended
    /// yet), or ended. An outage's probe asks only while it runs.
    private let phase = Mutex(RunPhase.idle)

    private enum RunPhase {
        case idle, running, closing, ended
    }
    /// Whether the database is known to be down: operations fail at once until it answers again.
    let outage = DatabaseOutage()
    /// How often a probe asks a database known to be down whether it answers again.
    static let outageProbeInterval = Duration.milliseconds(500)
    private let lastReadiness = Mutex<(at: ContinuousClock.Instant, readiness: StorageReadiness)?>(nil)

    /// A database at `url` whose documents `cipher` seals.
    /// - Parameters:
    ///   - url: Where the database is (`sessions.postgresURL`).
    ///   - cipher: Seals and opens every stored document.
    ///   - clock: Whose "now" expiry and leases use (the database's by default; tests inject one).
    ///   - options: Time limits and the pool's size.
    ///   - logger: Where failures are logged (never a password, key, document or session id).
    package init(url: PostgresURL, cipher: SessionCipher, clock: StorageClock = .database, options: Options = .init(), logger: Logger) {
        let perPool = max(1, options.maximumConnections / 2)
        self.client = PostgresClient(
            configuration: url.clientConfiguration(connectTimeout: options.connectTimeout, maximumConnections: perPool),
            backgroundLogger: Logger(label: "haapi-gateway.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        self.asynchronousClient = PostgresClient(
            configuration: url.clientConfiguration(
                connectTimeout: options.connectTimeout,
                maximumConnections: perPool,
                startupParameters: options.synchronousCommit ? [] : [("synchronous_commit", "off")]
            ),
            backgroundLogger: Logger(label: "haapi-gateway.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        self.cipher = cipher
        self.clock = clock
        self.options = options
        self.logger = logger
        self.name = url.description
        self.url = url
    }

    /// Runs the connection pool and prepares the tables (retrying while the database cannot be reached) until the task
    /// is cancelled or a graceful shutdown begins.
    /// - Throws: ``StartupFailure`` when the tables cannot be used: newer than this gateway knows, credentials refused,
    ///   or the tables missing and not creatable.
    package func run() async throws {
        phase.withLock { $0 = .running }
        defer { phase.withLock { $0 = .ended } }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.asynchronousClient.run() }
            // A database that never answers must not hold a shutdown: preparing ends with the graceful shutdown too.
            try await cancelWhenGracefulShutdown { try await self.prepareUntilDone() }
            try? await gracefulShutdown()
            phase.withLock { $0 = .closing }
            group.cancelAll()
        }
    }

    /// For a stop cut short at its deadline (``StopDeadline``): what of the database has not ended; nil when nothing.
    var stopReport: String? {
        phase.withLock { $0 } == .closing
            ? "its connections to \(name) had not closed; nothing is lost (every sign-in is saved before its page)" : nil
    }

    /// Creates or migrates the tables when they are missing or older than this gateway's (``PostgresSchema``); nothing
    /// when they are current. Replicas starting at once take turns (an advisory lock), so both succeed.
    /// - Throws: ``PostgresStorageError``; `newerSchema` for tables newer than this gateway knows.
    package func prepareSchema() async throws(PostgresStorageError) {
        let current = PostgresSchema.currentVersion
        let found = try await storedSchemaVersion()
        if let stored = found {
            if stored == current {
                markPrepared()
                return
            }
            if stored > current { throw Self.newerSchemaError(stored) }
        }
        do {
            try await createOrMigrate(to: current)
        } catch  where error.isMissingPrivilege {
            // The first contact of an operator whose gateway user may only read and write rows (and of every upgrade that
            // adds a table): say what to do, not only the SQLSTATE.
            throw PostgresStorageError(
                .serverError,
                "the gateway's database user may not create or change its tables (\(found.map { "schema version \($0) → \(current)" } ?? "none yet, version \(current) needed")): run docs/postgres-schema.sql once as a user that may, and grant the gateway's user what its comments say (SQLSTATE 42501)"
            )
        }
        markPrepared()
    }

    /// Creates or migrates the tables to `current` under the preparation lock, in one statement
    /// (``PostgresSchema/preparation(marker:)``), then reads on the same connection what that statement found. The lock is
    /// held only while the database runs the statement: held across the round trips of a transaction sent statement by
    /// statement, it made replicas starting at once on a loaded machine wait for each other's round trips (each waiting
    /// preparation then holding it for its own), past the time limit.
    private func createOrMigrate(to current: Int) async throws(PostgresStorageError) {
        let logger = self.logger
        let marker = String(UInt64.random(in: .min ... .max), radix: 16)
        let note: String? = try await perform("prepare the tables", limit: options.preparationTimeout) { client in
            try await client.withConnection { connection in
                _ = try await connection.query(PostgresQuery(unsafeSQL: PostgresSchema.preparation(marker: marker)), logger: logger).collect()
                var note: String?
                for try await value in try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT current_setting('\(PostgresSchema.preparationNote)', true)"),
                    logger: logger
                ).decode(String?.self) {
                    note = value
                }
                return note
            }
        }
        // "<marker> <version found, or none>". Another marker, or none, when the connection answering was not the one
        // that prepared (a pooler in transaction mode): then only the version is read again.
        let words = note?.split(separator: " ").map(String.init) ?? []
        guard words.count == 2, words[0] == marker else {
            if let stored = try await storedSchemaVersion(), stored > current { throw Self.newerSchemaError(stored) }
            return
        }
        let stored = Int(words[1])
        if let stored, stored > current { throw Self.newerSchemaError(stored) }
        if stored != current {
            logger.notice(
                "database tables prepared",
                metadata: ["database": "\(name)", "schema": "\(stored.map { "version \($0) → " } ?? "created at ")version \(current)"]
            )
        }
    }

    /// Whether the database can serve now: the tables are prepared and `SELECT 1` answers within
    /// ``Options/readinessTimeout``. An answer is reused for ``Options/readinessReuse``.
    package func readiness() async -> StorageReadiness {
        switch schemaState.withLock({ $0 }) {
        case .refused(let reason): return .notReady(reason)
        case .unprepared(let failure): return .notReady("tables not prepared yet" + (failure.map { " (\($0))" } ?? ""))
        case .prepared: break
        }
        // Known to be down: said at once (the outage's probe finds when it answers again).
        if let reason = outage.reason { return .notReady(reason) }
        let now = ContinuousClock.now
        if let last = lastReadiness.withLock({ $0 }), now - last.at < options.readinessReuse { return last.readiness }
        let readiness: StorageReadiness
        do throws(PostgresStorageError) {
            try await perform("readiness", limit: options.readinessTimeout) { client in
                _ = try await client.query("SELECT 1").collect()
            }
            readiness = .ready
        } catch {
            readiness = .notReady(await explained(error))
        }
        lastReadiness.withLock { $0 = (ContinuousClock.now, readiness) }
        return readiness
    }

    /// Waits for the first outcome of ``run()``'s preparation of the tables, so that a database that refuses them stops
    /// the gateway before it listens: returns once they are prepared, or the first attempt met a database that cannot be
    /// reached (``run()`` then goes on trying while the gateway serves "try again" pages), or after `limit` (a silent
    /// database: it takes ``Options/connectTimeout`` to say so).
    /// - Parameter limit: The longest wait (default: the connection's time limit and a second).
    /// - Throws: ``StartupFailure`` when the tables cannot be used (as ``run()`` throws it); `CancellationError` when the
    ///   task is cancelled first (``run()`` throwing that failure cancels the services beside it), so that nothing starts
    ///   listening meanwhile.
    package func firstPreparation(within limit: Duration? = nil) async throws {
        let deadline = ContinuousClock.now + (limit ?? options.connectTimeout + .seconds(1))
        while ContinuousClock.now < deadline {
            if case .refused(let reason) = schemaState.withLock({ $0 }) {
                throw StartupFailure(message: "\(reason) (\(name))", exitStatus: StartupFailure.configurationStatus)
            }
            if tablesPrepared || firstAttemptEnded.withLock({ $0 }) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Whether the tables are prepared (by ``run()`` or ``prepareSchema()``): until then there is nothing to ask them.
    var tablesPrepared: Bool {
        if case .prepared = schemaState.withLock({ $0 }) { true } else { false }
    }

    /// Why a person's page is told at once that the database cannot serve, as `/readyz` says it (``readiness()``): the
    /// database is down or suspect (``outage``), or its tables are not prepared (a replica started while the database
    /// refused it: asking would wait out the operation's limit for an answer that cannot come). Nil: the page may ask.
    var pageRefusal: String? {
        if outage.failsAtOnce { return outage.reason ?? "it did not answer in time" }
        switch schemaState.withLock({ $0 }) {
        case .prepared: return nil
        case .refused(let reason): return reason
        case .unprepared(let failure): return "tables not prepared yet" + (failure.map { " (\($0))" } ?? "")
        }
    }

    /// Runs `body` with the pool of `commit` within `limit` (default ``Options/operationTimeout``), every failure a
    /// ``PostgresStorageError`` naming `operation`. Every outcome is noted in ``outage``. A store says what a down
    /// database means for each of its operations (``storeCall(_:whileDown:refusal:logger:failure:_:)``).
    func perform<Value: Sendable>(
        _ operation: String,
        limit: Duration? = nil,
        commit: Commit = .durable,
        _ body: @escaping @Sendable (PostgresClient) async throws -> Value
    ) async throws(PostgresStorageError) -> Value {
        let limit = limit ?? options.operationTimeout
        let client = commit == .durable ? self.client : asynchronousClient
        do {
            let value = try await deadlines.run(
                limit: limit,
                timedOut: .timedOut(operation, after: limit),
                cancelled: PostgresStorageError(.cancelled, "\(operation): cancelled")
            ) { () async throws(PostgresStorageError) -> Value in
                do {
                    return try await body(client)
                } catch {
                    throw PostgresStorageError.from(Self.unwrapped(error), operation: operation)
                }
            }
            outage.record(nil)
            return value
        } catch {
            // The probe says when the database is known to be down (before the tables are prepared, the preparation says it).
            if outage.record(error) { Task { await self.probeUntilAnswered() } }
            throw error
        }
    }

    /// Asks a database that failed an operation whether it answers, at once and then every ``outageProbeInterval``, until
    /// it does (which ends the outage, or the doubt of an operation that only ran out of time) or the gateway stops. A
    /// probe that fails makes the database known to be down; the first failure is explained (what one connection meets,
    /// named), for `/readyz` and the pages' log lines.
    private func probeUntilAnswered() async {
        var explained = false
        var wasDown = false
        while phase.withLock({ $0 }) == .running {
            do throws(PostgresStorageError) {
                try await perform("ask whether the database answers", limit: options.readinessTimeout) { client in
                    _ = try await client.query("SELECT 1").collect()
                }
            } catch {
                outage.confirm(error.message)
                if !wasDown, tablesPrepared {
                    logger.warning(
                        "the database does not answer; pages say so at once until it does again",
                        metadata: ["database": "\(name)", "error": "\(error.message)"]
                    )
                }
                wasDown = true
                if !explained {
                    explained = true
                    outage.explain(await self.explained(error))
                }
            }
            guard outage.probeGoesOn(stopping: phase.withLock { $0 } != .running) else { break }
            try? await Task.sleep(for: Self.outageProbeInterval)
        }
        _ = outage.probeGoesOn(stopping: true)
        if wasDown, !outage.isDown, tablesPrepared { logger.notice("the database answers again", metadata: ["database": "\(name)"]) }
    }

    /// Binds the clock's reading (nil: the database's `now()`).
    func appendNow(to bindings: inout PostgresBindings) {
        bindings.append(clock.now())
    }

    // MARK: - Preparing

    private func storedSchemaVersion() async throws(PostgresStorageError) -> Int? {
        try await perform("read the schema version", limit: options.preparationTimeout) { client in
            var exists = false
            for try await found in try await client.query("SELECT to_regclass('haapi_gateway_schema') IS NOT NULL").decode(Bool.self) {
                exists = found
            }
            guard exists else { return nil }
            var stored: Int?
            for try await version in try await client.query("SELECT max(version) FROM haapi_gateway_schema").decode(Int32?.self) {
                stored = version.map(Int.init)
            }
            return stored
        }
    }

    private func prepareUntilDone() async throws {
        var delay: Duration = .seconds(1)
        var lastLogged: String?
        // One connection of its own first: what stops the pool's (TLS, a password, a database name) is said at once,
        // not after an operation's time runs out.
        if let reason = await PostgresConnectionProbe.diagnose(url, within: options.connectTimeout) {
            schemaState.withLock { if case .unprepared = $0 { $0 = .unprepared(lastFailure: reason) } }
            logger.warning("database unreachable; trying again", metadata: ["database": "\(name)", "error": "\(reason)"])
            lastLogged = reason
        }
        while !Task.isCancelled {
            do throws(PostgresStorageError) {
                try await prepareSchema()
                if lastLogged != nil { logger.notice("database reachable again; tables prepared", metadata: ["database": "\(name)"]) }
                return
            } catch  where error.code == .cancelled {
                return
            } catch  where error.code == .unavailable || error.code == .timedOut {
                let reason = await explained(error)
                schemaState.withLock { $0 = .unprepared(lastFailure: reason) }
                firstAttemptEnded.withLock { $0 = true }
                if lastLogged != reason {
                    logger.warning("database unreachable; trying again", metadata: ["database": "\(name)", "error": "\(reason)"])
                    lastLogged = reason
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(15))
            } catch {
                let reason = Self.refusal(error)
                schemaState.withLock { $0 = .refused(reason) }
                throw StartupFailure(message: "\(reason) (\(name))", exitStatus: StartupFailure.configurationStatus)
            }
        }
    }

    /// An operation's failure in words: when the database gave no answer (the pool keeps trying a connection that fails
    /// and says only that time ran out), what one connection of its own meets, named (``PostgresConnectionProbe``).
    private func explained(_ error: PostgresStorageError) async -> String {
        guard error.code == .unavailable || error.code == .timedOut else { return error.message }
        return await PostgresConnectionProbe.diagnose(url, within: options.connectTimeout) ?? error.message
    }

    private func markPrepared() {
        schemaState.withLock { $0 = .prepared }
    }

    private static func refusal(_ error: PostgresStorageError) -> String {
        switch error.code {
        case .newerSchema: error.message
        case .serverError where error.isMissingPrivilege: error.message
        case .authenticationFailed: "the session database refused the credentials of \(ConfigurationKey.sessionsPostgresURL.path): \(error.message)"
        case .serverError:
            "the session database's tables cannot be prepared (\(error.message)); if the gateway's user may not create tables, create them with docs/postgres-schema.sql"
        default: "the session database cannot be used: \(error.message)"
        }
    }

    private static func newerSchemaError(_ stored: Int) -> PostgresStorageError {
        PostgresStorageError(
            .newerSchema,
            "the session database's tables are at schema version \(stored), newer than this gateway's \(PostgresSchema.currentVersion); run a gateway that knows version \(stored)"
        )
    }

    /// The error inside a transaction's wrapper (its `BEGIN`, body, or `COMMIT`).
    private static func unwrapped(_ error: any Error) -> any Error {
        guard let transaction = error as? PostgresTransactionError else { return error }
        return transaction.beginError ?? transaction.closureError ?? transaction.commitError ?? error
    }
}
