import Foundation
import HAAPIGateway
import NIOCore
import PostgresNIO

/// A device's poll with its device code (``PostgresDeviceAuthorizations/poll(deviceCode:clientID:)``), in one statement
/// whatever the row's state: the row is locked and read as it is now (a poll racing this one waits, then reads the row
/// as that one left it), and one of three things happens to it.
/// - `take`: approved tokens, or a hand-over open past its lease (its answer taken as lost), are taken for a hand-over
///   (state `handing`, its lease from `last_poll_at`): of two polls, on whichever replicas, one gets them.
/// - `end`: a refusal is taken out as it is read, and so are tokens past `expires_in`, whatever happened before
///   (RFC 8628 §3.5 `expired_token`).
/// - `note`: still waiting (or kept until its row is forgotten): the poll is noted, and one sooner than the interval
///   slows the device down by 5 s (RFC 8628 §3.5). A hand-over under way is left alone: the poll is told to wait, and
///   its lease is not renewed.
/// No row: the code is unknown to this client (or forgotten).
struct DevicePollStatement: PostgresPreparedStatement {
    /// What happened (`take`, `end` or `note`), the row's reference, its state and sealed tokens before the poll, whether
    /// it had not expired, and whether the poll came too soon (and the interval grew).
    typealias Row = (action: String, reference: String, state: String, sealed: ByteBuffer?, live: Bool, slowed: Bool)

    static let name = "haapi_gateway_device_poll_v1"
    static let sql = """
        WITH t AS (SELECT COALESCE($1::timestamptz, now()) AS now),
        old AS (
            SELECT d.device_code_hash, d.reference, d.state, d.tokens, d.last_poll_at, d.interval_seconds,
                d.expires_at > t.now AS live, d.forget_at > t.now AS kept, t.now
            FROM haapi_gateway_device_authorizations d, t
            WHERE d.device_code_hash = $2 AND d.client_id = $3 FOR UPDATE OF d
        ),
        verdict AS (
            SELECT old.*,
                CASE
                    WHEN state = 'denied' OR (state IN ('approved', 'handing') AND NOT live) THEN 'end'
                    WHEN state = 'approved' OR (state = 'handing' AND last_poll_at <= now - make_interval(secs => $4)) THEN 'take'
                    WHEN kept THEN 'note'
                END AS action,
                state <> 'handing' AND live AND last_poll_at > now - make_interval(secs => interval_seconds) IS TRUE AS slowed
            FROM old
        ),
        taken AS (
            UPDATE haapi_gateway_device_authorizations d SET state = 'handing', last_poll_at = verdict.now
            FROM verdict WHERE d.device_code_hash = verdict.device_code_hash AND verdict.action = 'take'
        ),
        ended AS (
            DELETE FROM haapi_gateway_device_authorizations d
            USING verdict WHERE d.device_code_hash = verdict.device_code_hash AND verdict.action = 'end'
        ),
        noted AS (
            UPDATE haapi_gateway_device_authorizations d
            SET last_poll_at = CASE WHEN verdict.state = 'handing' THEN d.last_poll_at ELSE verdict.now END,
                interval_seconds = d.interval_seconds + CASE WHEN verdict.slowed THEN 5 ELSE 0 END
            FROM verdict WHERE d.device_code_hash = verdict.device_code_hash AND verdict.action = 'note'
        )
        SELECT action, reference, state, tokens, live, slowed FROM verdict WHERE action IS NOT NULL
        """
    static let bindingDataTypes: [PostgresDataType] = [.timestamptz, .text, .text, .int4]

    /// The SHA-256 of the device code (``DeviceCode/hash(_:)``).
    let deviceCodeHash: String
    let clientID: String
    /// How long a hand-over keeps the tokens from other polls (``DeviceTokenHandOver/leaseSeconds``).
    let leaseSeconds: Int32
    /// The test clock's reading; nil: the database's `now()`.
    let now: Date?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(now)
        bindings.append(deviceCodeHash)
        bindings.append(clientID)
        bindings.append(leaseSeconds)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((String, String, String, ByteBuffer?, Bool, Bool).self)
    }
}
