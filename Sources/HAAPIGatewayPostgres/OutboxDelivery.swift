import HAAPIGateway

/// A callback delivery waiting in the outbox: one outcome document for one sink (the counterpart of a line of the
/// spool file, ``SpooledDelivery``).
package struct OutboxDelivery: Sendable, Equatable {
    /// The delivery id: the same for every sink and every attempt, so receivers drop duplicates.
    package let id: String
    /// The sink's name (`file:/…`, `exec:/…`, the webhook's URL).
    package let sink: String
    /// `success`, `error` or `cancelled`, for log lines.
    package let outcome: String
    /// The outcome document (JSON; it may hold tokens, so it is stored sealed).
    package let document: [UInt8]
    /// The attempts already made (by this replica, from its memory, while the outbox could not be written): the row's
    /// count of attempts starts from them.
    package let attemptsMade: Int

    /// Creates a delivery.
    /// - Parameters:
    ///   - id: The delivery id.
    ///   - sink: The sink's name.
    ///   - outcome: `success`, `error` or `cancelled`.
    ///   - document: The outcome document.
    ///   - attemptsMade: The attempts already made.
    package init(id: String, sink: String, outcome: String, document: [UInt8], attemptsMade: Int = 0) {
        self.id = id
        self.sink = sink
        self.outcome = outcome
        self.document = document
        self.attemptsMade = attemptsMade
    }

    /// The delivery of a spooled one.
    init(_ spooled: SpooledDelivery) {
        self.init(id: spooled.id, sink: spooled.sink, outcome: spooled.outcome, document: Array(spooled.document.utf8))
    }
}
