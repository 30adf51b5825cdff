import Foundation
import HAAPIGateway
import NIOCore
import PostgresNIO
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pending callback deliveries in PostgreSQL (`haapi_gateway_outbox`), so that any replica delivers them and none is
/// lost to a restart or a crash: the storage side of ``CallbackDispatcher``'s journal with `sessions.store: postgres`
/// (``CallbackOutbox``), for several replicas.
///
/// The life of a delivery, as the dispatcher uses it:
/// 1. ``enqueue(_:claimingFor:ending:)`` before the first attempt (claimed by this replica, which attempts it at once;
///    a sign-in's outcome is also noted as its one outcome);
/// 2. an attempt: ``markDelivered(id:sink:)`` when the sink accepted it, else
///    ``reschedule(id:sink:attempt:retryAfter:retryFor:)`` (the dispatcher's backoff: 1 s, doubling, at most a minute),
///    which gives it up once the next attempt would come `retryFor` after the first failure;
/// 3. every replica's worker calls ``claimDue(sinks:limit:lease:)`` now and then: deliveries whose next attempt is due
///    and that nobody holds are claimed with `FOR UPDATE SKIP LOCKED` and a lease, so two replicas never claim the same
///    one, and a replica killed in the middle of an attempt holds it only until its lease ends;
/// 4. at shutdown ``releaseClaims()`` hands what this replica holds to the others at once.
///
/// Every claim counts an attempt (`attempts`), and that count is the claim's fence: a result is reported for the
/// attempt it belongs to, so an attempt that outlived its lease cannot end a later claim of the same delivery, even
/// when the same replica made it (its report finds the row at a later attempt and changes nothing).
///
/// Documents are sealed like sessions (they hold tokens), bound to their delivery id and sink. Times compare against
/// the database's clock (``StorageClock``).
package final class PostgresOutbox: Sendable {
    static let table = PostgresSchema.outboxTable

    /// The database (its pool, cipher and clock).
    package let database: PostgresDatabase
    /// The name this replica claims under (host, process and a random part: unique per process).
    package let owner: String
    /// Whether this process claimed a delivery under ``owner`` (kept, approved with a device, or claimed when due).
    private let claimed = Mutex(false)

    /// Whether this process ever claimed a delivery: one that never did has no claim to release at shutdown.
    package var hasClaimed: Bool { claimed.withLock { $0 } }

    /// The outbox in `database`.
    /// - Parameters:
    ///   - database: The database.
    ///   - owner: The name claims are made under; by default unique to this process.
    package init(database: PostgresDatabase, owner: String = PostgresOutbox.processOwner()) {
        self.database = database
        self.owner = owner
    }

    /// `host-pid-random`: unique per process, readable in `claimed_by`.
    package static func processOwner() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count) == 0 ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "host"
        return "\(host)-\(getpid())-\(SecureToken.make(byteCount: 6))"
    }

    /// The row id sealed documents are bound to: the delivery id's length, the id and the sink.
    static func rowID(id: String, sink: String) -> String {
        "\(id.utf8.count):\(id)\(sink)"
    }

    /// Adds deliveries (a delivery already there, same id and sink, is left as it is), with the attempts they have had
    /// (``OutboxDelivery/attemptsMade``).
    ///
    /// With `ending`, the deliveries are the outcome of a sign-in, and one statement also notes it as that sign-in's
    /// outcome (`haapi_gateway_sign_in_outcomes`) unless one was noted before. A sign-in has one outcome: an `error` or
    /// `cancelled` outcome of a sign-in that had one already is not added (a replica was killed after it noted a
    /// success and before it saved the sign-in, and the person's "Try again" replayed a step the upstream had finished).
    /// A `success` is always added, so that no token is dropped.
    /// - Parameters:
    ///   - deliveries: The deliveries.
    ///   - lease: When set, they are claimed by this replica for that long (it attempts them at once: that attempt is
    ///     counted, and its number is `attemptsMade + 1`); else any replica may claim them now.
    ///   - ending: The sign-in whose outcome they are, and that outcome.
    /// - Returns: The outcome the sign-in had before, when it had one (then an `error` or `cancelled` was not added).
    @discardableResult
    package func enqueue(
        _ deliveries: [OutboxDelivery],
        claimingFor lease: Duration?,
        ending: SignInOutcomeNote? = nil
    ) async throws(PostgresStorageError) -> String? {
        guard !deliveries.isEmpty else { return nil }
        let query = PostgresQuery(
            unsafeSQL: Self.enqueueStatement(approvingDevice: false),
            binds: bindings(deliveries, claimingFor: lease, ending: ending)
        )
        let earlier = try await database.perform("add callback deliveries") { client in
            try await client.query(query).decode((Bool, String?).self).first { _ in true }?.1
        }
        if lease != nil { claimed.withLock { $0 = true } }
        return earlier
    }

    /// Approves a device's sign-in (its tokens wait for its next poll, as ``PostgresDeviceAuthorizations`` approves one)
    /// and adds the deliveries of that sign-in's `success` outcome, in one statement: both or neither. A replica killed
    /// between an approval and the ``enqueue(_:claimingFor:ending:)`` after it left a device with tokens and the sinks
    /// without its outcome; now the deliveries are added only when the approval is made, claimed by this replica as
    /// `enqueue` claims them, and another replica delivers them once that claim's lease has ended.
    /// - Parameters:
    ///   - reference: The device authorization's reference.
    ///   - sealedTokens: The tokens' document, sealed for that row.
    ///   - deliveries: The outcome's deliveries.
    ///   - lease: How long they are claimed by this replica.
    ///   - ending: The sign-in and its outcome (`success`).
    /// - Returns: Whether the device was approved (false: its code expired, or was decided otherwise; nothing was added),
    ///   and the outcome the sign-in had before when it had one.
    package func approveDevice(
        reference: String,
        sealedTokens: [UInt8],
        adding deliveries: [OutboxDelivery],
        claimingFor lease: Duration,
        ending: SignInOutcomeNote
    ) async throws(PostgresStorageError) -> (approved: Bool, earlier: String?) {
        var bindings = bindings(deliveries, claimingFor: lease, ending: ending)
        bindings.append(reference)
        bindings.append(ByteBuffer(bytes: sealedTokens))
        let query = PostgresQuery(unsafeSQL: Self.enqueueStatement(approvingDevice: true), binds: bindings)
        let row = try await database.perform("hand tokens to a device and add its outcome's callback deliveries") { client in
            try await client.query(query).decode((Bool, String?).self).first { _ in true }
        }
        if row?.0 == true { claimed.withLock { $0 = true } }
        return (row?.0 ?? false, row?.1)
    }

    /// `$1`–`$11` of ``enqueueStatement(approvingDevice:)``.
    private func bindings(_ deliveries: [OutboxDelivery], claimingFor lease: Duration?, ending: SignInOutcomeNote?) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(deliveries.map(\.id))
        bindings.append(deliveries.map(\.sink))
        bindings.append(deliveries.map(\.outcome))
        bindings.append(
            deliveries.map { ByteBuffer(bytes: database.cipher.seal($0.document, table: Self.table, rowID: Self.rowID(id: $0.id, sink: $0.sink))) }
        )
        bindings.append(lease == nil ? nil : owner)
        bindings.append(lease?.storageSeconds)
        database.appendNow(to: &bindings)
        bindings.append(deliveries.map { Int32(clamping: $0.attemptsMade) })
        bindings.append(ending?.signIn)
        bindings.append(ending?.outcome)
        bindings.append(deliveries.first?.id)
        return bindings
    }

    /// Adds deliveries and notes a sign-in's outcome (``enqueue(_:claimingFor:ending:)``); approving a device too
    /// (``approveDevice(reference:sealedTokens:adding:claimingFor:ending:)``, its reference `$12` and sealed tokens `$13`),
    /// when it does not, nothing is added or noted. The row it answers: whether the device was approved (true when no
    /// device is), and the outcome noted before when there was one. The note's upsert returns the row as it stands: ours
    /// when its delivery id is this one's.
    private static func enqueueStatement(approvingDevice: Bool) -> String {
        let approval = """
            approved AS (
            \(PostgresDeviceAuthorizations.approval(reference: "$12::text", tokens: "$13::bytea", now: "(SELECT now FROM t)"))
            ),
            """
        let onlyIfApproved = approvingDevice ? " AND EXISTS (SELECT 1 FROM approved)" : ""
        return """
            WITH t AS (SELECT COALESCE($7::timestamptz, now()) AS now),
            \(approvingDevice ? approval : "")
            noted AS (
                INSERT INTO haapi_gateway_sign_in_outcomes AS o (sign_in, outcome, delivery_id, recorded_at)
                SELECT $9::text, $10::text, $11::text, t.now FROM t WHERE $9::text IS NOT NULL\(onlyIfApproved)
                ON CONFLICT (sign_in) DO UPDATE SET sign_in = o.sign_in
                RETURNING o.outcome, o.delivery_id = $11::text AS ours
            ),
            added AS (
                INSERT INTO haapi_gateway_outbox
                    (delivery_id, sink, outcome, document, attempts, created_at, next_attempt_at, claimed_by, claimed_until)
                SELECT d.id, d.sink, d.outcome, d.document, d.made + CASE WHEN $5::text IS NULL THEN 0 ELSE 1 END, t.now, t.now,
                       $5::text, t.now + $6::float8 * interval '1 second'
                FROM unnest($1::text[], $2::text[], $3::text[], $4::bytea[], $8::int4[]) AS d(id, sink, outcome, document, made), t
                WHERE ($9::text IS NULL OR $10::text = 'success' OR EXISTS (SELECT 1 FROM noted WHERE ours))\(onlyIfApproved)
                ON CONFLICT (delivery_id, sink) DO NOTHING
                RETURNING 1
            )
            SELECT \(approvingDevice ? "EXISTS (SELECT 1 FROM approved)" : "true"), (SELECT outcome FROM noted WHERE NOT ours LIMIT 1)
            """
    }

    /// Claims up to `limit` deliveries that are due and that nobody holds (or whose holder's lease has ended), for the
    /// given sinks only (a replica never claims a delivery for a sink it does not have), oldest due first.
    /// - Parameters:
    ///   - sinks: The names of this replica's sinks.
    ///   - limit: The most to claim.
    ///   - lease: How long they are this replica's; past it another replica may claim them again.
    /// - Returns: The claimed deliveries, each with its attempts counted.
    package func claimDue(sinks: [String], limit: Int, lease: Duration) async throws(PostgresStorageError) -> [OutboxClaim] {
        guard !sinks.isEmpty, limit > 0 else { return [] }
        var bindings = PostgresBindings()
        bindings.append(sinks)
        bindings.append(Int64(limit))
        bindings.append(owner)
        database.appendNow(to: &bindings)
        bindings.append(lease.storageSeconds)
        let query = PostgresQuery(
            unsafeSQL: """
                WITH t AS (SELECT COALESCE($4::timestamptz, now()) AS now),
                due AS (
                    SELECT o.delivery_id, o.sink FROM haapi_gateway_outbox o, t
                    WHERE o.sink = ANY($1::text[]) AND o.next_attempt_at <= t.now
                      AND (o.claimed_until IS NULL OR o.claimed_until <= t.now)
                    ORDER BY o.next_attempt_at
                    LIMIT $2
                    FOR UPDATE OF o SKIP LOCKED
                )
                UPDATE haapi_gateway_outbox o
                SET claimed_by = $3, claimed_until = t.now + $5 * interval '1 second', attempts = o.attempts + 1
                FROM due, t
                WHERE o.delivery_id = due.delivery_id AND o.sink = due.sink
                RETURNING o.delivery_id, o.sink, o.outcome, o.document, o.attempts
                """,
            binds: bindings
        )
        let rows = try await database.perform("claim due callback deliveries") { client in
            var rows: [(String, String, String, ByteBuffer, Int32)] = []
            for try await row in try await client.query(query).decode((String, String, String, ByteBuffer, Int32).self) { rows.append(row) }
            return rows
        }
        if !rows.isEmpty { claimed.withLock { $0 = true } }
        return rows.map { id, sink, outcome, sealed, attempts in
            OutboxClaim(
                id: id,
                sink: sink,
                outcome: outcome,
                attempts: Int(attempts),
                document: database.cipher.open(Array(buffer: sealed), table: Self.table, rowID: Self.rowID(id: id, sink: sink))
            )
        }
    }

    /// The sink accepted the delivery: it leaves the outbox, whoever holds it now.
    /// - Returns: Whether it was still there.
    @discardableResult
    package func markDelivered(id: String, sink: String) async throws(PostgresStorageError) -> Bool {
        var bindings = PostgresBindings()
        bindings.append(id)
        bindings.append(sink)
        let query = PostgresQuery(
            unsafeSQL: """
                WITH deleted AS (DELETE FROM haapi_gateway_outbox WHERE delivery_id = $1 AND sink = $2 RETURNING 1)
                SELECT count(*) FROM deleted
                """,
            binds: bindings
        )
        return try await database.perform("mark a callback delivered") { client in
            try await client.query(query).decode(Int64.self).first { _ in true } ?? 0
        } > 0
    }

    /// An attempt failed: the delivery waits `retryAfter` for its next one, unclaimed, unless that would come after its
    /// give-up time (`retryFor` after its first failure), when it is given up and deleted. Only the replica holding the
    /// claim for that attempt may do this.
    /// - Parameters:
    ///   - id: The delivery id.
    ///   - sink: The sink's name.
    ///   - attempt: The failed attempt's number (the delivery's count of attempts when this replica claimed it).
    ///   - retryAfter: The wait before the next attempt (the dispatcher's backoff).
    ///   - retryFor: How long after the first failure it is given up (`callbacks.retryForSeconds`).
    /// - Returns: ``OutboxReschedule/willRetry``, ``OutboxReschedule/givenUp`` or ``OutboxReschedule/notClaimed``.
    package func reschedule(
        id: String,
        sink: String,
        attempt: Int,
        retryAfter: Duration,
        retryFor: Duration
    ) async throws(PostgresStorageError) -> OutboxReschedule {
        var bindings = PostgresBindings()
        bindings.append(id)
        bindings.append(sink)
        bindings.append(owner)
        bindings.append(retryAfter.storageSeconds)
        bindings.append(retryFor.storageSeconds)
        database.appendNow(to: &bindings)
        bindings.append(Int32(clamping: attempt))
        let query = PostgresQuery(
            unsafeSQL: """
                WITH t AS (SELECT COALESCE($6::timestamptz, now()) AS now),
                target AS (
                    SELECT o.delivery_id, o.sink,
                           COALESCE(o.give_up_at, t.now + $5 * interval '1 second') AS give_up,
                           t.now + $4 * interval '1 second' AS next
                    FROM haapi_gateway_outbox o, t
                    WHERE o.delivery_id = $1 AND o.sink = $2 AND o.claimed_by = $3 AND o.attempts = $7
                    FOR UPDATE OF o
                ),
                dropped AS (
                    DELETE FROM haapi_gateway_outbox o USING target
                    WHERE o.delivery_id = target.delivery_id AND o.sink = target.sink AND target.next > target.give_up
                    RETURNING 1
                ),
                moved AS (
                    UPDATE haapi_gateway_outbox o
                    SET next_attempt_at = target.next, give_up_at = target.give_up, claimed_by = NULL, claimed_until = NULL
                    FROM target
                    WHERE o.delivery_id = target.delivery_id AND o.sink = target.sink AND target.next <= target.give_up
                    RETURNING 1
                )
                SELECT (SELECT count(*) FROM dropped), (SELECT count(*) FROM moved)
                """,
            binds: bindings
        )
        let (dropped, moved) = try await database.perform("reschedule a callback delivery") { client -> (Int64, Int64) in
            for try await counts in try await client.query(query).decode((Int64, Int64).self) { return counts }
            return (0, 0)
        }
        if dropped > 0 { return .givenUp }
        return moved > 0 ? .willRetry : .notClaimed
    }

    /// Gives a delivery up (its document cannot be opened, or the dispatcher decided so): it leaves the outbox. Only the
    /// replica holding the claim for that attempt may do this.
    /// - Parameters:
    ///   - id: The delivery id.
    ///   - sink: The sink's name.
    ///   - attempt: The attempt's number (the delivery's count of attempts when this replica claimed it).
    /// - Returns: Whether this replica held it.
    @discardableResult
    package func giveUp(id: String, sink: String, attempt: Int) async throws(PostgresStorageError) -> Bool {
        var bindings = PostgresBindings()
        bindings.append(id)
        bindings.append(sink)
        bindings.append(owner)
        bindings.append(Int32(clamping: attempt))
        let query = PostgresQuery(
            unsafeSQL: """
                WITH deleted AS (
                    DELETE FROM haapi_gateway_outbox WHERE delivery_id = $1 AND sink = $2 AND claimed_by = $3 AND attempts = $4 RETURNING 1
                )
                SELECT count(*) FROM deleted
                """,
            binds: bindings
        )
        return try await database.perform("give a callback delivery up") { client in
            try await client.query(query).decode(Int64.self).first { _ in true } ?? 0
        } > 0
    }

    /// Releases every claim this replica holds (at shutdown), so other replicas may attempt those deliveries at once
    /// rather than when the leases end.
    /// - Returns: How many were released.
    @discardableResult
    package func releaseClaims() async throws(PostgresStorageError) -> Int {
        var bindings = PostgresBindings()
        bindings.append(owner)
        let query = PostgresQuery(
            unsafeSQL: """
                WITH released AS (
                    UPDATE haapi_gateway_outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1 RETURNING 1
                )
                SELECT count(*) FROM released
                """,
            binds: bindings
        )
        return Int(
            try await database.perform("release callback delivery claims") { client in
                try await client.query(query).decode(Int64.self).first { _ in true } ?? 0
            }
        )
    }

    /// How many deliveries are in the outbox (waiting, claimed, or for sinks no replica has).
    package func pendingCount() async throws(PostgresStorageError) -> Int {
        Int(
            try await database.perform("count callback deliveries") { client in
                try await client.query("SELECT count(*) FROM haapi_gateway_outbox").decode(Int64.self).first { _ in true } ?? 0
            }
        )
    }
}
