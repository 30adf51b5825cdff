import Crypto
import Foundation
import HAAPIGateway
import Logging
import PostgresNIO

/// The start links used, in the database of `sessions.store: postgres` (`haapi_gateway_used_start_links`, schema
/// version 4): the SHA-256 of each signature until its link expires, so that a link redeemed on one replica is refused on
/// every other. The insert is the check: of two replicas redeeming one link at once, one inserts the row. Rows past
/// their link's expiry are deleted by the sessions' sweep (``PostgresSessionStorage/sweepBookkeeping()``).
struct PostgresStartLinkLedger: StartLinkLedger {
    let database: PostgresDatabase
    let logger: Logger

    func use(signature: String, expiry: Date, now: Date) async throws(GatewayError) -> Bool {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(SHA256.hash(data: Data(signature.utf8)).map { String(format: "%02x", $0) }.joined())
        bindings.append(expiry)
        let insert = PostgresQuery(
            unsafeSQL: "INSERT INTO haapi_gateway_used_start_links (signature_hash, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1",
            binds: bindings
        )
        let operation = "note a used start link"
        return try await database.storeCall(
            operation,
            whileDown: .refuseAtOnce,
            refusal: GatewayError(.storeUnavailable, .signInStoreUnavailable).retrying(after: 5),
            logger: logger,
            failure: "start link database failed"
        ) { () async throws(PostgresStorageError) -> Bool in
            try await database.perform(operation) { client in try await client.query(insert).decode(Int32.self).first { _ in true } != nil }
        }
    }
}
