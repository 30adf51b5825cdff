import Foundation
import HAAPIGateway
import NIOCore
import PostgresNIO

/// Reads a live session (``PostgresSessionStorage/load(id:knownVersion:)``): its version, and its sealed document
/// unless the row is still at the version the caller already holds. The read counts as use, written only when the last
/// use is a second old or more, or when nobody had come back to the session yet (`returned`, what keeps it from being
/// pushed out at the cap): a page shown right after the post that saved the session writes nothing (and its
/// transaction commits without waiting for the disk).
struct SessionLoadStatement: PostgresPreparedStatement {
    typealias Row = (sealed: ByteBuffer?, version: Int64)

    static let name = "haapi_gateway_session_load_v4"
    static let sql = """
        WITH t AS (SELECT COALESCE($2::timestamptz, now()) AS now),
        touched AS (
            UPDATE haapi_gateway_sessions s
            SET idle_expires_at = LEAST(s.expires_at, t.now + s.idle_timeout_seconds * interval '1 second'), used_at = t.now, returned = true
            FROM t
            WHERE s.id = $1 AND LEAST(s.expires_at, s.idle_expires_at) > t.now
              AND (s.used_at IS NULL OR s.used_at <= t.now - interval '1 second' OR NOT s.returned)
            RETURNING 1
        )
        SELECT CASE WHEN s.version = $3 THEN NULL ELSE s.document END, s.version FROM haapi_gateway_sessions s, t
        WHERE s.id = $1 AND LEAST(s.expires_at, s.idle_expires_at) > t.now
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .timestamptz, .int8]

    let rowID: String
    let now: Date?
    let knownVersion: Int64?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(rowID)
        bindings.append(now)
        bindings.append(knownVersion)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((ByteBuffer?, Int64).self)
    }
}
