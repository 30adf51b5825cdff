import HAAPIGateway

/// A sign-in's outcome, noted beside its deliveries in the outbox (``PostgresOutbox/enqueue(_:claimingFor:ending:)``)
/// so that replicas agree on a sign-in's one outcome.
package struct SignInOutcomeNote: Sendable, Equatable {
    /// The sign-in's id (`signInId`).
    package let signIn: String
    /// `success`, `error` or `cancelled`.
    package let outcome: String

    package init(signIn: String, outcome: String) {
        self.signIn = signIn
        self.outcome = outcome
    }
}
