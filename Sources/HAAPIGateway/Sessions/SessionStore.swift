/// Where sign-in sessions are kept between requests, by opaque id: in this process's memory (``MemorySessionStore``, the
/// default), or in PostgreSQL (``PostgresSessionStore``), where sign-ins survive a restart and any replica serves any
/// request. The gateway asks only through this protocol.
///
/// A request checks its session out (``checkOut(id:for:)``), acts on it, and checks it in (``checkIn(_:)``): a store
/// that keeps live sessions in memory needs nothing on check-in, one that keeps documents writes what changed with a
/// version check. A request that will act checks out for ``SessionUse/acting``, which a shared store turns into a
/// claim: two requests for one sign-in never both act.
package protocol SessionStore<Session>: Sendable {
    associatedtype Session: Sendable

    /// Stores a new session started by `address` under a fresh id, checked out to the request that made it; nil when
    /// the store is full.
    func add(_ session: Session, address: String?) async throws(GatewayError) -> SessionCheckout<Session>?
    /// Whether a new session would be stored now.
    func hasRoom() async throws(GatewayError) -> Bool
    /// The live session with this id for a request that uses it as `use` says (it counts as use of the session).
    func checkOut(id: String, for use: SessionUse) async throws(GatewayError) -> SessionLookup<Session>
    /// Keeps what the request did to a checked-out session and releases its claim; checking in again later keeps what
    /// changed since.
    func checkIn(_ checkout: SessionCheckout<Session>) async throws(GatewayError)
    /// How long the session has been left alone, or nil when unknown.
    func idleDuration(id: String) async throws(GatewayError) -> Duration?
    /// Checks the session in and moves it to a fresh id (after sign-in); returns the new id, or nil when it is gone.
    func rotate(_ checkout: SessionCheckout<Session>) async throws(GatewayError) -> String?
    /// Forgets the session (a failure is logged: an unreachable database lets it expire instead).
    func remove(id: String) async
    /// How many sessions are held.
    var count: Int { get async }
    /// How many sessions were pushed out at the cap since the start.
    var evictions: Int { get async }
}
