import HAAPIGateway

/// How long a request holds a sign-in in a shared store (``PostgresSessionStore``), and how long another waits for it.
struct SessionClaimTiming: Sendable {
    /// How long a claim holds unless renewed: how long a replica that dies in the middle of a request keeps its sign-in
    /// from the person (default 10 s).
    var lease: Duration = .seconds(10)
    /// How often a request that still runs renews its claim (default every 3 s: two renewals may fail before it ends).
    var renewal: Duration = .seconds(3)
    /// How long a request that will act waits for a claim another request holds before it shows "busy, try again"
    /// (default 12 s: a lease and then some, so that the claim of a replica that died ends first).
    var actingWait: Duration = .seconds(12)
}
