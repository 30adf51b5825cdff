import Crypto
import Foundation
import HAAPI
import HAAPIGateway
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// The live sessions of every replica, and the cap on them (`sessions.maximumSessions`).
extension PostgresSessionStorage {
    /// How many live sessions there are, across every replica.
    package func count() async throws(PostgresStorageError) -> Int {
        let query = countStatement()
        let count = try await database.perform("count sessions") { client in
            try await client.query(query).decode(Int64.self).first { _ in true } ?? 0
        }
        return Int(count)
    }

    /// Whether a live session nobody came back to since its first page (`returned` false) exists, which
    /// ``insert(id:document:lifetimes:address:withinCap:)`` could push out at the cap.
    package func hasUntouched() async throws(PostgresStorageError) -> Bool {
        var bindings = PostgresBindings()
        database.appendNow(to: &bindings)
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT EXISTS (
                    SELECT 1 FROM haapi_gateway_sessions
                    WHERE NOT returned AND LEAST(expires_at, idle_expires_at) > COALESCE($1::timestamptz, now())
                )
                """,
            binds: bindings
        )
        return try await database.perform("look for untouched sessions", commit: .asynchronous) { client in
            try await client.query(query).decode(Bool.self).first { _ in true } ?? false
        }
    }

    /// Stores a new session unless that takes the live sessions of every replica past `cap`: at the cap it first pushes
    /// out the oldest session nobody came back to since its first page, of the address holding the most of them (what
    /// the memory store does: a flood of cookieless requests pushes out its own sessions, never a person's who has seen a
    /// second page; a session a request holds is left alone), and past the cap up to three, so that the table comes
    /// back to it. Replicas storing at once near the cap take turns (an advisory lock for the transaction).
    /// - Returns: Whether it was stored, after pushing one out, or not at all (every session in use).
    /// - Throws: ``PostgresStorageError``; `serverError` when a session with this id exists.
    package func insert(
        id: String,
        document: [UInt8],
        lifetimes: SessionLifetimes,
        address: String?,
        withinCap cap: Int
    ) async throws(PostgresStorageError)
        -> SessionInsertion
    {
        let row = Self.rowID(for: id)
        let insert = SessionInsertStatement(
            rowID: row,
            lifetimes: lifetimes,
            address: address,
            sealed: database.cipher.seal(document, table: Self.table, rowID: row),
            now: database.clock.now()
        )
        var lock = PostgresBindings()
        lock.append(Self.capLockKey)
        let lockQuery = PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock($1)", binds: lock)
        let countQuery = countStatement()
        let evictQuery = evictStatement()
        let insertQuery = PostgresQuery(unsafeSQL: SessionInsertStatement.sql, binds: try Self.bindings(of: insert))
        let logger = database.logger
        let outcome: SessionInsertion? = try await database.perform("store a new session at the cap", commit: .asynchronous) { client in
            try await client.withTransaction(logger: logger) { connection in
                // Every result is read to its end before the next statement: the lock is held only once its row has come.
                _ = try await connection.query(lockQuery, logger: logger).collect()
                let live = try await connection.query(countQuery, logger: logger).decode(Int64.self).first { _ in true } ?? 0
                var outcome = SessionInsertion.inserted
                // At the cap one goes for the new one; past it (sign-ins of other replicas counted late) up to three, so
                // that the table comes back to the cap.
                for _ in 0..<min(3, max(0, Int(live) - cap + 1)) {
                    guard try await connection.query(evictQuery, logger: logger).decode(Int32.self).first(where: { _ in true }) != nil else { break }
                    outcome = .insertedAfterPushingOut
                }
                if live >= cap, outcome == .inserted { return .full }
                let version = try await connection.query(insertQuery, logger: logger).decode(Int64.self).first { _ in true }
                return version == nil ? nil : outcome
            }
        }
        guard let outcome else { throw PostgresStorageError(.serverError, "insert a session: a session with this id exists") }
        return outcome
    }

    /// A fixed key for `pg_advisory_xact_lock`: new sessions stored near the cap, one replica at a time.
    static let capLockKey: Int64 = 0x6861_6170_6967_7702  // "haapigw" and 2

    /// Pushes out the oldest live session nobody came back to, of the address holding the most of them.
    private func evictStatement() -> PostgresQuery {
        var bindings = PostgresBindings()
        database.appendNow(to: &bindings)
        return PostgresQuery(
            unsafeSQL: """
                WITH t AS (SELECT COALESCE($1::timestamptz, now()) AS now),
                crowded AS (
                    SELECT s.address FROM haapi_gateway_sessions s, t
                    WHERE NOT s.returned AND LEAST(s.expires_at, s.idle_expires_at) > t.now
                    GROUP BY s.address ORDER BY count(*) DESC LIMIT 1
                )
                DELETE FROM haapi_gateway_sessions WHERE id = (
                    SELECT s.id FROM haapi_gateway_sessions s, t, crowded
                    WHERE NOT s.returned AND s.address IS NOT DISTINCT FROM crowded.address AND LEAST(s.expires_at, s.idle_expires_at) > t.now
                      AND (s.claimed_until IS NULL OR s.claimed_until <= t.now)
                    ORDER BY s.created_at LIMIT 1 FOR UPDATE OF s SKIP LOCKED
                )
                RETURNING 1
                """,
            binds: bindings
        )
    }

    /// Counts the live sessions.
    private func countStatement() -> PostgresQuery {
        var bindings = PostgresBindings()
        database.appendNow(to: &bindings)
        return PostgresQuery(
            unsafeSQL: """
                SELECT count(*) FROM haapi_gateway_sessions
                WHERE LEAST(expires_at, idle_expires_at) > COALESCE($1::timestamptz, now())
                """,
            binds: bindings
        )
    }

    /// A prepared statement's bindings, for running its SQL inside a transaction.
    private static func bindings(of statement: some PostgresPreparedStatement) throws(PostgresStorageError) -> PostgresBindings {
        do {
            return try statement.makeBindings()
        } catch {
            throw PostgresStorageError(.other, "the statement's values could not be bound")
        }
    }
}
