import HAAPIGateway
import PostgresNIO

/// Releases a claim without changing the session (``PostgresSessionStorage/release(id:claim:)``); nothing when the
/// claim no longer holds it.
struct SessionReleaseStatement: PostgresPreparedStatement {
    typealias Row = Int32

    static let name = "haapi_gateway_session_release_v3"
    static let sql = "UPDATE haapi_gateway_sessions SET claimed_by = NULL, claimed_until = NULL WHERE id = $1 AND claimed_by = $2"
    static let bindingDataTypes: [PostgresDataType] = [.text, .text]

    let rowID: String
    let claim: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(rowID)
        bindings.append(claim)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Int32.self)
    }
}
