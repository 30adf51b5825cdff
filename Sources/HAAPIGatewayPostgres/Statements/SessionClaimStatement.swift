import Foundation
import HAAPIGateway
import NIOCore
import PostgresNIO

/// Holds a live session that no one holds for a request that will act on it (``PostgresSessionStorage/claim(id:claim:lease:knownVersion:)``),
/// counting as use; answers the version and the sealed document (unless the row is still at the version the caller
/// already holds) when it claimed, and whether a live row exists at all. A claim racing this one waits for its row
/// lock, then finds the row held and claims nothing (READ COMMITTED evaluates the condition again on the row as the
/// other left it).
struct SessionClaimStatement: PostgresPreparedStatement {
    typealias Row = (sealed: ByteBuffer?, version: Int64?, exists: Bool)

    static let name = "haapi_gateway_session_claim_v4"
    static let sql = """
        WITH t AS (SELECT COALESCE($4::timestamptz, now()) AS now),
        claimed AS (
            UPDATE haapi_gateway_sessions s
            SET claimed_by = $2, claimed_until = t.now + $3 * interval '1 second', used_at = t.now, returned = true,
                idle_expires_at = LEAST(s.expires_at, t.now + s.idle_timeout_seconds * interval '1 second')
            FROM t
            WHERE s.id = $1 AND LEAST(s.expires_at, s.idle_expires_at) > t.now
              AND (s.claimed_until IS NULL OR s.claimed_until <= t.now)
            RETURNING CASE WHEN s.version = $5 THEN NULL ELSE s.document END AS document, s.version
        )
        SELECT (SELECT document FROM claimed), (SELECT version FROM claimed),
               EXISTS (SELECT 1 FROM haapi_gateway_sessions s, t WHERE s.id = $1 AND LEAST(s.expires_at, s.idle_expires_at) > t.now)
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .float8, .timestamptz, .int8]

    let rowID: String
    let claim: String
    let lease: Duration
    let now: Date?
    let knownVersion: Int64?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(rowID)
        bindings.append(claim)
        bindings.append(lease.storageSeconds)
        bindings.append(now)
        bindings.append(knownVersion)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((ByteBuffer?, Int64?, Bool).self)
    }
}
