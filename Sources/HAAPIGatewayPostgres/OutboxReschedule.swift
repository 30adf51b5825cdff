import HAAPIGateway

/// What ``PostgresOutbox/reschedule(id:sink:retryAfter:retryFor:)`` did with a failed attempt.
package enum OutboxReschedule: Sendable, Equatable {
    /// The delivery waits for its next attempt, unclaimed, so any replica may make it.
    case willRetry
    /// Its next attempt would come after its give-up time: it is deleted; log it as given up.
    case givenUp
    /// This replica no longer holds the claim (its lease ended and another replica claimed it, or it is done):
    /// nothing changed.
    case notClaimed
}
