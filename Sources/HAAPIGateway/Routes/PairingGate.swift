/// Lets exactly one browser through the single-use URL of a ``PairingTicket``: the first post with the right token
/// before the expiry redeems it; every later one, a wrong token or an expired one is refused alike. Looking at the link
/// (``check(_:)``) uses nothing.
actor PairingGate {
    private var ticket: PairingTicket?
    private let now: @Sendable () -> ContinuousClock.Instant

    init(ticket: PairingTicket, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.ticket = ticket
        self.now = now
    }

    /// The ticket when `token` is its token and it has not expired or been used, without using it (the link's page,
    /// which a link preview may fetch as well as the person).
    func check(_ token: String) -> PairingTicket? {
        guard let ticket, now() < ticket.expiresAt, SecureToken.constantTimeEquals(token, ticket.token) else { return nil }
        return ticket
    }

    /// Redeems the ticket when `token` is its token (compared in constant time) and it has not expired or been used.
    /// - Returns: The ticket on the one successful redemption, else nil.
    func redeem(_ token: String) -> PairingTicket? {
        guard let ticket, now() < ticket.expiresAt, SecureToken.constantTimeEquals(token, ticket.token) else { return nil }
        self.ticket = nil
        return ticket
    }
}
