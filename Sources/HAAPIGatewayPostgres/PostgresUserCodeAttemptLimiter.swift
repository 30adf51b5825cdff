import Crypto
import Foundation
import HAAPIGateway
import Logging
import PostgresNIO

/// The wrong user codes entered on the verification page, counted for the replicas together in the database of
/// `sessions.store: postgres` (`haapi_gateway_wrong_user_codes`, schema version 6: one row per wrong code, when it was
/// entered and the client address's HMAC; ``UserCodeAttemptLimiter``). A guesser whose requests a balancer spreads over
/// the replicas meets the deployment's bounds, not one set per replica.
///
/// The address is kept only as its HMAC-SHA256 under a key derived from each of the sessions' encryption keys (HKDF, as
/// ``PostgresDeviceAuthorizations`` keeps user codes): a database reader cannot try the 2³² IPv4 addresses against it,
/// and a key rotation keeps finding the addresses counted before it. A wrong code entered without an address (a Unix
/// socket) is counted for everyone only.
///
/// The check and the count are two statements, as in one process: wrong codes sent at the very same moment, before
/// any of them is counted, may each pass the check (on any replica). Times compare against the database's clock
/// (``StorageClock``). Rows older than a day, the longest window `devices.wrongCodeWindowSeconds` allows, are deleted by
/// the sessions' sweep (``PostgresSessionStorage/sweepBookkeeping()``).
///
/// A database that does not answer refuses the page with "try again" (503), like every other step of the device grant:
/// the bounds are never let go while the database recovers. While it is known to be down the page is told at once.
final class PostgresUserCodeAttemptLimiter: UserCodeAttemptLimiter {
    let database: PostgresDatabase
    let logger: Logger
    private let settings: SettingsSource<DeviceSettings>
    /// The keys of the address HMACs, one per session encryption key, the sealing key's first.
    private let addressKeys: [Data]

    init(database: PostgresDatabase, settings: SettingsSource<DeviceSettings>, logger: Logger) {
        self.database = database
        self.logger = logger
        self.settings = settings
        self.addressKeys = HMACToken.keys(for: "wrong user code addresses", derivedFrom: database.cipher)
    }

    func retryAfter(address: String?) async throws(GatewayError) -> Int? {
        let settings = settings.current
        var bindings = PostgresBindings(capacity: 5)
        database.appendNow(to: &bindings)
        bindings.append(Int32(settings.wrongCodeWindowSeconds))
        bindings.append(address.map(addressHashes))
        bindings.append(Int64(settings.maximumWrongCodesPerAddress))
        bindings.append(Int64(settings.maximumWrongCodes))
        // For each bound, the wrong code whose leaving the window brings the count below it (the bound-th most recent):
        // the address's own, and everyone's when the address guessed wrong itself in the window (or has no address).
        let query = PostgresQuery(
            unsafeSQL: """
                WITH t AS (SELECT COALESCE($1::timestamptz, now()) AS now, make_interval(secs => $2) AS span),
                counted AS (
                    SELECT w.address_hash, w.wrong_at FROM haapi_gateway_wrong_user_codes w, t WHERE w.wrong_at > t.now - t.span
                ),
                own AS (SELECT wrong_at FROM counted WHERE address_hash = ANY($3::text[])),
                leaving AS (
                    SELECT (SELECT wrong_at FROM own ORDER BY wrong_at DESC OFFSET $4 - 1 LIMIT 1) AS wrong_at
                    UNION ALL
                    SELECT (SELECT wrong_at FROM counted ORDER BY wrong_at DESC OFFSET $5 - 1 LIMIT 1)
                    WHERE $3::text[] IS NULL OR EXISTS (SELECT 1 FROM own)
                )
                SELECT max(GREATEST(1, CEIL(EXTRACT(EPOCH FROM (leaving.wrong_at + t.span - t.now))))::integer)
                FROM leaving, t WHERE leaving.wrong_at IS NOT NULL
                """,
            binds: bindings
        )
        let wait = try await run("count the wrong user codes") { client in
            try await client.query(query).decode(Int32?.self).first { _ in true } ?? nil
        }
        return wait.map(Int.init)
    }

    func recordWrongCode(address: String?) async throws(GatewayError) {
        var bindings = PostgresBindings(capacity: 2)
        database.appendNow(to: &bindings)
        bindings.append(address.map { addressHashes($0)[0] })
        let insert = PostgresQuery(
            unsafeSQL: "INSERT INTO haapi_gateway_wrong_user_codes (address_hash, wrong_at) VALUES ($2, COALESCE($1::timestamptz, now()))",
            binds: bindings
        )
        try await run("count a wrong user code") { client in _ = try await client.query(insert).collect() }
    }

    /// The address's HMAC (hex) under each key, the sealing key's first.
    private func addressHashes(_ address: String) -> [String] {
        addressKeys.map { key in
            HMAC<SHA256>.authenticationCode(for: Data(address.utf8), using: SymmetricKey(data: key)).map { String(format: "%02x", $0) }.joined()
        }
    }

    /// Runs one operation, failing at once while the database is known to be down (a person's page waits for it); a
    /// failure is logged naming `operation` and becomes "try again" (503).
    private func run<Value: Sendable>(
        _ operation: String,
        _ body: @escaping @Sendable (PostgresClient) async throws -> Value
    ) async throws(GatewayError) -> Value {
        try await database.storeCall(
            operation,
            whileDown: .refuseAtOnce,
            refusal: GatewayError(.storeUnavailable, .sessionStoreUnavailable).retrying(after: 5),
            logger: logger,
            failure: "wrong user codes cannot be counted; the verification page is refused until they can"
        ) { () async throws(PostgresStorageError) -> Value in try await database.perform(operation, body) }
    }
}
