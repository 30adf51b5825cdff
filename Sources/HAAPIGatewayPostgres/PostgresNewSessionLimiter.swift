import HAAPIGateway
import Logging
import PostgresNIO

/// The sign-ins each client address started, counted for the replicas together in the database of
/// `sessions.store: postgres` (`haapi_gateway_sign_in_starts`, schema version 4: one row per admitted start, the
/// address and when; ``NewSessionBudget``). One statement counts the address's starts within the window and adds this
/// one when the bound allows it, so an address spread over replicas has one budget; replicas admitting the same
/// address at the very same moment may each let one more through. An address's rows older than its window go as it is
/// counted, the rest with the sessions' sweep (``PostgresSessionStorage/sweepBookkeeping()``).
///
/// A database that does not answer admits the start (it is then refused by the session store's own "try again"): the
/// bound is there to keep floods off the upstream, not to lock people out while the database recovers.
final class PostgresNewSessionLimiter: NewSessionBudget {
    let database: PostgresDatabase
    let logger: Logger
    private let settings: SettingsSource<SessionSettings>

    init(database: PostgresDatabase, settings: SettingsSource<SessionSettings>, logger: Logger) {
        self.database = database
        self.settings = settings
        self.logger = logger
    }

    func admit(address: String?) async -> Int? {
        let settings = settings.current
        guard let address, settings.maximumNewSessionsPerAddress > 0 else { return nil }
        var bindings = PostgresBindings(capacity: 4)
        database.appendNow(to: &bindings)
        bindings.append(address)
        bindings.append(Int32(settings.newSessionWindowSeconds))
        bindings.append(Int64(settings.maximumNewSessionsPerAddress))
        let query = PostgresQuery(
            unsafeSQL: """
                WITH t AS (SELECT COALESCE($1::timestamptz, now()) AS now),
                forgotten AS (
                    DELETE FROM haapi_gateway_sign_in_starts s USING t
                    WHERE s.address = $2 AND s.started_at <= t.now - make_interval(secs => $3)
                ),
                recent AS (
                    SELECT count(*) AS started, min(s.started_at) AS oldest FROM haapi_gateway_sign_in_starts s, t
                    WHERE s.address = $2 AND s.started_at > t.now - make_interval(secs => $3)
                ),
                added AS (
                    INSERT INTO haapi_gateway_sign_in_starts (address, started_at)
                    SELECT $2, t.now FROM recent, t WHERE recent.started < $4
                    RETURNING 1
                )
                SELECT recent.started < $4,
                       GREATEST(1, CEIL(EXTRACT(EPOCH FROM (recent.oldest + make_interval(secs => $3) - t.now))))::integer
                FROM recent, t
                """,
            binds: bindings
        )
        let operation = "count an address's new sign-ins"
        do {
            let (admitted, wait) = try await database.storeCall(
                operation,
                whileDown: .refuseAtOnce,
                refusal: GatewayError(.storeUnavailable, .signInStoreUnavailable),
                logger: logger,
                failure: "new sign-ins could not be counted; this one is let through"
            ) { () async throws(PostgresStorageError) -> (Bool, Int32?) in
                try await database.perform(operation, commit: .asynchronous) { client in
                    try await client.query(query).decode((Bool, Int32?).self).first { _ in true } ?? (true, nil)
                }
            }
            return admitted ? nil : Int(wait ?? 1)
        } catch {
            return nil
        }
    }
}
