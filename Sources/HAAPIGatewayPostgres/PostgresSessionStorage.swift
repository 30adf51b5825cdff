import Crypto
import Foundation
import HAAPI
import HAAPIGateway
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// Session documents in PostgreSQL (`haapi_gateway_sessions`), so that sign-ins survive a restart and any replica can
/// serve any request. It stores opaque bytes: what a session holds and how it is encoded is the caller's.
///
/// - A row is found by the SHA-256 of the session id (base64url), never the id itself: a copy of the table holds no
///   cookie that would resume a sign-in.
/// - Every document is sealed (``SessionCipher``) with that row id as associated data, so a document moved to another
///   row does not open.
/// - Rows carry a version. ``save(id:document:expectedVersion:claim:)`` writes only when the row is still at the version the
///   caller loaded (an `UPDATE … WHERE id = $1 AND version = $2`): of two writers holding the same version exactly one
///   wins, and the other is told ``SessionSave/conflict``. A request that will act on a session claims it first
///   (``claim(id:claim:lease:knownVersion:)``), so that no other request acts on it meanwhile.
/// - Rows expire after their absolute lifetime or when unused for their idle lifetime (a load or save uses them);
///   expired rows are never returned and ``sweep()`` deletes them (``run()`` sweeps every ``sweepInterval``).
///
/// Every statement binds its values (`$1`, `$2`, …); none is built from a value. Every failure is a
/// ``PostgresStorageError`` value within the database's time limit.
package final class PostgresSessionStorage: Service, Sendable {
    static let table = PostgresSchema.sessionsTable

    /// The database (its pool, cipher and clock).
    package let database: PostgresDatabase
    /// How often ``run()`` deletes expired rows.
    package let sweepInterval: Duration

    /// Sessions in `database`.
    /// - Parameters:
    ///   - database: The database.
    ///   - sweepInterval: How often ``run()`` deletes expired rows (default a minute).
    package init(database: PostgresDatabase, sweepInterval: Duration = .seconds(60)) {
        self.database = database
        self.sweepInterval = sweepInterval
    }

    /// Runs the database (pool and tables, ``PostgresDatabase/run()``) and deletes expired rows every
    /// ``sweepInterval``, until cancelled or a graceful shutdown.
    package func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await self.database.run() }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: self.sweepInterval)
                        guard !Task.isCancelled else { break }
                        do throws(PostgresStorageError) {
                            let swept = try await self.sweep()
                            if swept > 0 { self.database.logger.debug("expired sessions deleted", metadata: ["count": .stringConvertible(swept)]) }
                            try await self.sweepBookkeeping()
                        } catch {
                            self.database.logger.warning("expired rows could not be deleted", metadata: ["error": "\(error.message)"])
                        }
                    }
                }
            }
        }
    }

    /// The row id of a session id: base64url of its SHA-256.
    static func rowID(for sessionID: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(sessionID.utf8))))
    }

    /// Stores a new session.
    /// - Parameters:
    ///   - id: The session id (the cookie's value; only its SHA-256 is stored).
    ///   - document: The session, encoded by the caller.
    ///   - lifetimes: Its absolute and idle lifetimes.
    ///   - address: The client address that started it, if known.
    /// - Returns: Its version (1).
    /// - Throws: ``PostgresStorageError``; `serverError` when a session with this id exists.
    @discardableResult
    package func insert(id: String, document: [UInt8], lifetimes: SessionLifetimes, address: String?) async throws(PostgresStorageError) -> Int64 {
        let row = Self.rowID(for: id)
        let statement = SessionInsertStatement(
            rowID: row,
            lifetimes: lifetimes,
            address: address,
            sealed: database.cipher.seal(document, table: Self.table, rowID: row),
            now: database.clock.now()
        )
        let inserted = try await database.perform("insert a session", commit: .asynchronous) { client in
            try await client.execute(statement).first { _ in true }
        }
        guard let version = inserted else { throw PostgresStorageError(.serverError, "insert a session: a session with this id exists") }
        return version
    }

    /// The live session with this id, if any; loading counts as use (its idle lifetime starts again; written when the
    /// last use is a second old or more).
    /// - Parameters:
    ///   - id: The session id.
    ///   - knownVersion: The version whose document the caller already holds, if any: when the row is still at it, its
    ///     document is not read again (``SessionLoad/current(version:)``).
    /// - Returns: The document and version, ``SessionLoad/current(version:)``, ``SessionLoad/absent``, or
    ///   ``SessionLoad/unreadable(_:)`` when the row's document cannot be opened.
    package func load(id: String, knownVersion: Int64? = nil) async throws(PostgresStorageError) -> SessionLoad {
        let row = Self.rowID(for: id)
        let statement = SessionLoadStatement(rowID: row, now: database.clock.now(), knownVersion: knownVersion)
        let found = try await database.perform("load a session", commit: .asynchronous) { client in
            try await client.execute(statement).first { _ in true }
        }
        guard let found else { return .absent }
        guard let sealed = found.sealed else { return .current(version: found.version) }
        switch database.cipher.open(Array(buffer: sealed), table: Self.table, rowID: row) {
        case .success(let document): return .found(StoredSession(document: document, version: found.version))
        case .failure(let error): return .unreadable(error)
        }
    }

    /// Replaces a session's document, only if the row is still at `expectedVersion` (compare and swap) and, with `claim`,
    /// still held by that claim (which the save releases), without one, held by no one; saving counts as use. The
    /// document is sealed under the first key, so a save also moves an old document to the current key.
    /// - Parameters:
    ///   - id: The session id.
    ///   - document: The new document.
    ///   - expectedVersion: The version the caller loaded.
    ///   - claim: The claim the caller holds (``claim(id:claim:lease:knownVersion:)``), released by the save; nil when it holds none.
    /// - Returns: ``SessionSave/saved(version:)`` with the new version; ``SessionSave/conflict`` when another writer got
    ///   there first or holds the session; ``SessionSave/gone`` when the session expired or was removed.
    package func save(id: String, document: [UInt8], expectedVersion: Int64, claim: String? = nil) async throws(PostgresStorageError) -> SessionSave {
        let row = Self.rowID(for: id)
        let statement = SessionSaveStatement(
            rowID: row,
            sealed: database.cipher.seal(document, table: Self.table, rowID: row),
            expectedVersion: expectedVersion,
            now: database.clock.now(),
            claim: claim,
            newRowID: row
        )
        let (saved, current) = try await database.perform("save a session", commit: .asynchronous) { client in
            try await client.execute(statement).first { _ in true } ?? (nil, nil)
        }
        if let saved { return .saved(version: saved) }
        return current == nil ? .gone : .conflict
    }

    /// Loads a live session for a request that will act on it, and holds it for that request (`claimed_by`,
    /// `claimed_until`): until the claim is released (``save(id:document:expectedVersion:claim:)``,
    /// ``release(id:claim:)``) or its lease ends, no other claim and no unclaimed save succeeds, so two requests for one
    /// sign-in, on one replica or two, never both act. A replica that dies holds it only until the lease ends
    /// (``renew(id:claim:lease:)`` extends it while the request runs). Claiming counts as use.
    /// - Parameters:
    ///   - id: The session id.
    ///   - claim: A value naming this request's claim (random, never reused).
    ///   - lease: How long the claim holds unless renewed or released.
    ///   - knownVersion: The version whose document the caller already holds, if any: when the row is still at it, its
    ///     document is not read again (``SessionClaim/claimedCurrent(version:)``).
    /// - Returns: ``SessionClaim/claimed(_:)``, ``SessionClaim/claimedCurrent(version:)``, ``SessionClaim/busy`` when
    ///   another claim holds it, ``SessionClaim/absent``, or ``SessionClaim/unreadable(_:)`` (the claim is then released).
    package func claim(id: String, claim: String, lease: Duration, knownVersion: Int64? = nil) async throws(PostgresStorageError) -> SessionClaim {
        let row = Self.rowID(for: id)
        let statement = SessionClaimStatement(rowID: row, claim: claim, lease: lease, now: database.clock.now(), knownVersion: knownVersion)
        let (sealed, version, exists) = try await database.perform("claim a session", commit: .asynchronous) { client in
            try await client.execute(statement).first { _ in true } ?? (nil, nil, false)
        }
        guard let version else { return exists ? .busy : .absent }
        guard let sealed else { return .claimedCurrent(version: version) }
        switch database.cipher.open(Array(buffer: sealed), table: Self.table, rowID: row) {
        case .success(let document): return .claimed(StoredSession(document: document, version: version))
        case .failure(let error):
            try await release(id: id, claim: claim)
            return .unreadable(error)
        }
    }

    /// Extends a claim this request holds by `lease` from now.
    /// - Returns: Whether the claim was still this request's.
    @discardableResult
    package func renew(id: String, claim: String, lease: Duration) async throws(PostgresStorageError) -> Bool {
        var bindings = PostgresBindings()
        bindings.append(Self.rowID(for: id))
        bindings.append(claim)
        bindings.append(lease.storageSeconds)
        database.appendNow(to: &bindings)
        let query = PostgresQuery(
            unsafeSQL: """
                UPDATE haapi_gateway_sessions s SET claimed_until = t.now + $3 * interval '1 second'
                FROM (SELECT COALESCE($4::timestamptz, now()) AS now) t
                WHERE s.id = $1 AND s.claimed_by = $2
                RETURNING 1
                """,
            binds: bindings
        )
        return try await database.perform("renew a session claim", commit: .asynchronous) { client in
            try await client.query(query).decode(Int32.self).first { _ in true }
        } != nil
    }

    /// Releases a claim without changing the session (the request changed nothing); nothing when it is not held.
    package func release(id: String, claim: String) async throws(PostgresStorageError) {
        let statement = SessionReleaseStatement(rowID: Self.rowID(for: id), claim: claim)
        try await database.perform("release a session claim", commit: .asynchronous) { client in
            _ = try await client.execute(statement).first { _ in true }
        }
    }

    /// How long a live session has been left alone (since it was stored, loaded, claimed or saved), without touching it;
    /// nil when there is none.
    package func idleDuration(id: String) async throws(PostgresStorageError) -> Duration? {
        var bindings = PostgresBindings()
        bindings.append(Self.rowID(for: id))
        database.appendNow(to: &bindings)
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT EXTRACT(EPOCH FROM (t.now - COALESCE(s.used_at, s.created_at)))::float8
                FROM haapi_gateway_sessions s, (SELECT COALESCE($2::timestamptz, now()) AS now) t
                WHERE s.id = $1 AND LEAST(s.expires_at, s.idle_expires_at) > t.now
                """,
            binds: bindings
        )
        let seconds = try await database.perform("read how long a session was left alone") { client in
            try await client.query(query).decode(Double.self).first { _ in true }
        }
        return seconds.map { .milliseconds(Int64(max(0, $0) * 1000)) }
    }

    /// Saves a session's document under a fresh id in one statement (after sign-in: the new cookie's id), on the terms
    /// of ``save(id:document:expectedVersion:claim:)``: the row still at `expectedVersion`, held by `claim` (released)
    /// or by no one without one. The old id finds nothing afterwards.
    /// - Returns: The new id and version; ``SessionRotation/conflict`` when another writer got there first or holds the
    ///   session; ``SessionRotation/gone`` when it expired or was removed.
    package func rotate(id: String, document: [UInt8], expectedVersion: Int64, claim: String?) async throws(PostgresStorageError) -> SessionRotation {
        let row = Self.rowID(for: id)
        let newID = SecureToken.make()
        let newRow = Self.rowID(for: newID)
        let statement = SessionSaveStatement(
            rowID: row,
            sealed: database.cipher.seal(document, table: Self.table, rowID: newRow),
            expectedVersion: expectedVersion,
            now: database.clock.now(),
            claim: claim,
            newRowID: newRow
        )
        let (saved, current) = try await database.perform("rotate a session id", commit: .asynchronous) { client in
            try await client.execute(statement).first { _ in true } ?? (nil, nil)
        }
        if let saved { return .rotated(id: newID, version: saved) }
        return current == nil ? .gone : .conflict
    }

    /// Deletes a session (nothing when there is none).
    /// - Parameter id: The session id.
    package func remove(id: String) async throws(PostgresStorageError) {
        var bindings = PostgresBindings()
        bindings.append(Self.rowID(for: id))
        let query = PostgresQuery(unsafeSQL: "DELETE FROM haapi_gateway_sessions WHERE id = $1", binds: bindings)
        try await database.perform("remove a session") { client in
            _ = try await client.query(query).collect()
        }
    }

    /// Deletes every expired session.
    /// - Returns: How many were deleted.
    @discardableResult
    package func sweep() async throws(PostgresStorageError) -> Int {
        var bindings = PostgresBindings()
        database.appendNow(to: &bindings)
        let query = PostgresQuery(
            unsafeSQL: """
                WITH deleted AS (
                    DELETE FROM haapi_gateway_sessions WHERE LEAST(expires_at, idle_expires_at) <= COALESCE($1::timestamptz, now())
                    RETURNING 1
                )
                SELECT count(*) FROM deleted
                """,
            binds: bindings
        )
        let count = try await database.perform("delete expired sessions") { client in
            try await client.query(query).decode(Int64.self).first { _ in true } ?? 0
        }
        return Int(count)
    }

    /// Deletes the rows of the other tables that are of no more use: device authorizations a lifetime past their expiry,
    /// used start links past theirs, sign-in starts and wrong user codes older than the longest window they are counted
    /// in (a day), the notes of access tokens handed to devices once those have expired, and sign-ins' outcomes after a
    /// day (a sign-in lives `sessions.absoluteTimeoutSeconds`, an hour by default).
    func sweepBookkeeping() async throws(PostgresStorageError) {
        var bindings = PostgresBindings()
        database.appendNow(to: &bindings)
        let statements = [
            "DELETE FROM haapi_gateway_device_authorizations WHERE forget_at <= COALESCE($1::timestamptz, now())",
            "DELETE FROM haapi_gateway_used_start_links WHERE expires_at <= COALESCE($1::timestamptz, now())",
            "DELETE FROM haapi_gateway_sign_in_starts WHERE started_at <= COALESCE($1::timestamptz, now()) - interval '1 day'",
            "DELETE FROM haapi_gateway_device_tokens WHERE expires_at <= COALESCE($1::timestamptz, now())",
            "DELETE FROM haapi_gateway_sign_in_outcomes WHERE recorded_at <= COALESCE($1::timestamptz, now()) - interval '1 day'",
            "DELETE FROM haapi_gateway_wrong_user_codes WHERE wrong_at <= COALESCE($1::timestamptz, now()) - interval '1 day'",
        ].map { PostgresQuery(unsafeSQL: $0, binds: bindings) }
        try await database.perform("delete old bookkeeping rows", commit: .asynchronous) { client in
            for statement in statements { _ = try await client.query(statement).collect() }
        }
    }

    /// Whether sessions can be stored now (``PostgresDatabase/readiness()``), for `/readyz`.
    package func readiness() async -> StorageReadiness {
        await database.readiness()
    }
}
