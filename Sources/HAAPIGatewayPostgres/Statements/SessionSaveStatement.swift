import Foundation
import HAAPIGateway
import NIOCore
import PostgresNIO

/// Replaces a session's document, optionally under a new row id (a rotated session id), when the row is still at the
/// expected version and held by the caller's claim (which it releases), or, without a claim, held by no one
/// (``PostgresSessionStorage/save(id:document:expectedVersion:claim:)``, ``PostgresSessionStorage/rotate(id:document:expectedVersion:claim:)``).
/// Answers the new version when it wrote, and the live row's version as it was when the statement began: there when
/// the update found another version or holder (a conflict), absent when the session is gone.
struct SessionSaveStatement: PostgresPreparedStatement {
    typealias Row = (saved: Int64?, current: Int64?)

    static let name = "haapi_gateway_session_save_v3"
    static let sql = """
        WITH t AS (SELECT COALESCE($4::timestamptz, now()) AS now),
        updated AS (
            UPDATE haapi_gateway_sessions s
            SET id = $6, document = $2, version = s.version + 1, used_at = t.now, claimed_by = NULL, claimed_until = NULL,
                idle_expires_at = LEAST(s.expires_at, t.now + s.idle_timeout_seconds * interval '1 second')
            FROM t
            WHERE s.id = $1 AND s.version = $3 AND LEAST(s.expires_at, s.idle_expires_at) > t.now
              AND CASE WHEN $5::text IS NULL THEN s.claimed_until IS NULL OR s.claimed_until <= t.now
                       ELSE s.claimed_by = $5::text END
            RETURNING s.version
        )
        SELECT (SELECT version FROM updated),
               (SELECT s.version FROM haapi_gateway_sessions s, t WHERE s.id = $1 AND LEAST(s.expires_at, s.idle_expires_at) > t.now)
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .bytea, .int8, .timestamptz, .text, .text]

    let rowID: String
    let sealed: [UInt8]
    let expectedVersion: Int64
    let now: Date?
    let claim: String?
    /// The row id the session moves to; its own to stay.
    let newRowID: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(rowID)
        bindings.append(ByteBuffer(bytes: sealed))
        bindings.append(expectedVersion)
        bindings.append(now)
        bindings.append(claim)
        bindings.append(newRowID)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Int64?, Int64?).self)
    }
}
