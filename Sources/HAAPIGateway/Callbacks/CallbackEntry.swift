/// One delivery for one sink, as ``CallbackDispatcher`` tracks it between attempts.
package struct CallbackEntry: Sendable {
    /// The delivery id and the sink's place among the sinks (two sinks may share a name).
    package let key: String
    package let sink: any CallbackSink
    package let delivery: CallbackDelivery
    /// When retrying stops: `callbacks.retryForSeconds` after the first failure.
    package var giveUpAt: ContinuousClock.Instant
    /// The attempts made, the one under way included. In the outbox it is also the number of the attempt this
    /// replica's claim is for (``PostgresOutbox``'s fence).
    package var attempts: Int
    var nextAttempt: ContinuousClock.Instant
    package var backoff: Duration
    /// Whether the journal holds it (the outbox: claimed by this replica while an attempt is under way), so that its
    /// result is reported there; false while the journal could not take it (the database could not be reached).
    package var journaled = false
    /// The sink's name in the journal: its own, or `name #2`, `#3`, … for the later of sinks sharing one
    /// (``CallbackDispatcher/journalNames(_:)``).
    package let journalName: String
}
