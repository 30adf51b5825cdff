/// Bounds the sign-ins one client address starts in a sliding window (``SessionSettings/maximumNewSessionsPerAddress``
/// within ``SessionSettings/newSessionWindowSeconds``), so that a script sending cookieless `GET /` can neither fill the
/// session cap nor start more than that many flows on the upstream; past the bound the page is 429 with `Retry-After`.
/// Counted in this process (``NewSessionLimiter``), or with `sessions.store: postgres` for the replicas together
/// (``PostgresNewSessionLimiter``): a balancer spreading an address over replicas does not multiply its budget.
package protocol NewSessionBudget: Sendable {
    /// Counts a new sign-in of `address` when the bound allows it and returns nil; otherwise returns the seconds until
    /// it does (nothing is counted). Without an address (a Unix socket) or with the bound off (0) every start is allowed.
    func admit(address: String?) async -> Int?
}
