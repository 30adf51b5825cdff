/// How a sign-in's record ends: the phase it ends in, and what became of the outcome handed to the sinks.
extension SignInRecord {
    /// Ends the sign-in in `phase` (signed in, failed or cancelled): no step is shown any more.
    mutating func end(as phase: SessionPhase) {
        self.phase = phase
        step = nil
    }

    /// Notes what became of the outcome that ended the sign-in without tokens (``CallbackDispatcher/hand(_:)``):
    /// whether its hand-over is being retried; another outcome noted first (a replica killed after it noted a success
    /// and before it saved the sign-in, and "Try again" went on from the step before, which the upstream had finished)
    /// is the sign-in's, and after a success the page says signed in, as that replica's would have.
    /// - Returns: Whether it is this sign-in's outcome.
    mutating func note(_ handOver: OutcomeHandOver) -> Bool {
        switch handOver {
        case .accepted:
            deliveryDelayed = false
        case .retrying:
            deliveryDelayed = true
        case .alreadyEnded(let earlier):
            // The dispatcher logged it, naming both outcomes.
            deliveryDelayed = false
            if earlier == "success" { phase = .signedIn }
            return false
        }
        return true
    }
}
