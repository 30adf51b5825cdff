import HAAPIGateway

/// A delivery this replica has claimed from the outbox: until its lease ends no other replica attempts it. Report how
/// the attempt went with ``PostgresOutbox/markDelivered(id:sink:)``, ``PostgresOutbox/reschedule(id:sink:retryAfter:retryFor:)``
/// or ``PostgresOutbox/giveUp(id:sink:)``.
package struct OutboxClaim: Sendable, Equatable {
    /// The delivery id.
    package let id: String
    /// The sink's name.
    package let sink: String
    /// `success`, `error` or `cancelled`.
    package let outcome: String
    /// Attempts so far, this one included (an attempt cut short by a crash counts).
    package let attempts: Int
    /// The outcome document, or why it cannot be opened (its key was removed): such a delivery can only be given up.
    package let document: Result<[UInt8], SessionCipherError>
}
