/// What a store that keeps session documents remembers of one checkout, beside the live session: in PostgreSQL the
/// version, document and claim it loaded (`HAAPIGatewayPostgres`'s ticket), so that a check-in writes only what changed
/// and only over that version. The core asks it one thing: which version of the stored document the request saw.
package protocol SessionHold: Sendable {
    /// The version of the stored document the checkout loaded or last saved.
    var storedVersion: Int64 { get }
}
