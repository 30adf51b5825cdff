import HAAPIGateway

/// A delivery this replica has claimed from the outbox: until its lease ends no other replica attempts it. Report how
/// the attempt went with ``PostgresOutbox/markDelivered(id:sink:)``, ``PostgresOutbox/reschedule(id:sink:retryAfter:retryFor:)``
/// or ``PostgresOutbox/giveUp(id:sink:)``.
public struct OutboxClaim: Sendable, Equatable {
    /// The delivery id.
    public let id: String
    /// The sink's name.
    public let sink: String
    /// `success`, `error` or `cancelled`.
    public let outcome: String
    /// Attempts so far, this one included (an attempt cut short by a crash counts).
    public let attempts: Int
    /// The outcome document, or why it cannot be opened (its key was removed): such a delivery can only be given up.
    public let document: Result<[UInt8], SessionCipherError>
}
