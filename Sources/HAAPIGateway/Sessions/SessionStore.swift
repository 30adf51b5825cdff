/// Where sign-in sessions are kept between requests, by opaque id: in this process's memory (``MemorySessionStore``, the
/// default), or, for sign-ins that survive a restart and are shared by replicas, a database (issue #20). The gateway asks
/// only through this protocol.
///
/// A request loads its session (``session(id:)``), acts on it, and hands it back (``save(id:_:)``); a store that keeps
/// live sessions in memory needs nothing on save, one that keeps documents writes the new state with a version check.
protocol SessionStore<Session>: Sendable {
    associatedtype Session: Sendable

    /// Stores a new session started by `address` and returns its fresh id, or nil when the store is full.
    func insert(_ session: Session, address: String?) async -> String?
    /// Whether a new session would be stored now.
    func hasRoom() async -> Bool
    /// The live session with this id (marking it used), or nil when unknown or expired.
    func session(id: String) async -> Session?
    /// Keeps what a request did to the session with this id.
    func save(id: String, _ session: Session) async
    /// How long the session has been left alone, or nil when unknown.
    func idleDuration(id: String) async -> Duration?
    /// Moves the session to a fresh id (after sign-in) and returns it, or nil when unknown.
    func rotate(id: String) async -> String?
    /// Forgets the session.
    func remove(id: String) async
    /// Applies new lifetimes and cap (a reload).
    func update(settings: SessionSettings) async
    /// How many sessions are held.
    var count: Int { get async }
    /// How many sessions were pushed out at the cap since the start.
    var evictions: Int { get async }
}
