/// What a journal did with a failed attempt it took over (``CallbackJournal/failed(_:error:)``).
package enum CallbackJournalRetry: Sendable {
    /// Rescheduled with the delivery's backoff: any replica makes the next attempt.
    case rescheduled
    /// Past its retry period: given up.
    case givenUp
    /// This replica's hold ended during the attempt (its lease ran out, or it was released at shutdown): another
    /// replica has the delivery, or has delivered it.
    case heldElsewhere
}
