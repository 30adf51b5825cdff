import HAAPIGateway

extension CallbackEntry {
    /// What the outbox records of it.
    var outboxDelivery: OutboxDelivery {
        OutboxDelivery(id: delivery.id, sink: journalName, outcome: delivery.outcome, document: delivery.document, attemptsMade: attempts)
    }
}
