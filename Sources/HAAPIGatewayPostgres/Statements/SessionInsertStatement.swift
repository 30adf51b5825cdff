import Foundation
import HAAPIGateway
import NIOCore
import PostgresNIO

/// Stores a new session row at version 1 (``PostgresSessionStorage/insert(id:document:lifetimes:address:)``), not yet
/// `returned` to (nobody has come back to its first page); no row when one with this id exists. Prepared once per connection, as every statement on
/// a sign-in's path: PostgreSQL then
/// parses it once, not on every request.
struct SessionInsertStatement: PostgresPreparedStatement {
    typealias Row = Int64

    static let name = "haapi_gateway_session_insert_v4"
    static let sql = """
        INSERT INTO haapi_gateway_sessions
            (id, version, created_at, used_at, expires_at, idle_expires_at, idle_timeout_seconds, address, document, returned)
        SELECT $1, 1, t.now, t.now, t.now + $2 * interval '1 second',
               LEAST(t.now + $2 * interval '1 second', t.now + $3 * interval '1 second'), $4, $5, $6, false
        FROM (SELECT COALESCE($7::timestamptz, now()) AS now) t
        ON CONFLICT (id) DO NOTHING
        RETURNING version
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .float8, .float8, .int4, .text, .bytea, .timestamptz]

    let rowID: String
    let lifetimes: SessionLifetimes
    let address: String?
    let sealed: [UInt8]
    let now: Date?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(rowID)
        bindings.append(lifetimes.absolute.storageSeconds)
        bindings.append(lifetimes.idle.storageSeconds)
        bindings.append(Int32(clamping: Int64(lifetimes.idle.storageSeconds.rounded(.up))))
        bindings.append(address)
        bindings.append(ByteBuffer(bytes: sealed))
        bindings.append(now)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Int64.self)
    }
}
