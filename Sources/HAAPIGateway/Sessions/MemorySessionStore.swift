import Foundation

/// In-memory sessions by opaque id, with idle and absolute lifetimes and a cap.
///
/// At the cap, expired sessions are dropped first; then a session nobody has come back to since it was stored (no
/// lookup of its id: a cookieless `GET /` from a script that never sends the cookie back) is pushed out, the oldest of
/// the client address holding the most of them, so that a flood pushes out its own sessions and never one a person is
/// using; when every session has been used, a new one is refused. Expired sessions are also swept out when a session is
/// stored ``sweepInterval`` or more after the last sweep, so that sessions left behind (a closed tab) give their memory
/// back within about an idle lifetime.
public actor MemorySessionStore<Session: Sendable>: SessionStore {
    private struct Entry {
        let session: Session
        let created: ContinuousClock.Instant
        var lastUsed: ContinuousClock.Instant
        /// The client address that started it ("" when unknown).
        let address: String
        /// Whether its id was looked up since it was stored.
        var used = false
    }

    private var entries: [String: Entry] = [:]
    /// The ids of the sessions never used since stored, by client address, oldest first.
    private var unused: [String: [String]] = [:]
    /// How many sessions were pushed out at the cap since the start.
    public private(set) var evictions = 0
    private let settings: SettingsSource<SessionSettings>
    private let now: @Sendable () -> ContinuousClock.Instant
    private var lastSweep: ContinuousClock.Instant

    /// How often storing a session also drops the expired ones (a pass over every session).
    static var sweepInterval: Duration { .seconds(30) }

    /// A store whose lifetimes and cap never change.
    /// - Parameter now: The clock (injected by tests).
    public init(settings: SessionSettings, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.init(settings: .fixed(settings), now: now)
    }

    /// A store reading its lifetimes and cap at each use (a reload's hold for every session from then on).
    /// - Parameter now: The clock (injected by tests).
    package init(settings: SettingsSource<SessionSettings>, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
        self.lastSweep = now()
    }

    /// Stores a new session (``insert(_:address:)``), checked out to the request that made it.
    package func add(_ session: Session, address: String?) -> SessionCheckout<Session>? {
        insert(session, address: address).map { SessionCheckout(id: $0, session: session) }
    }

    /// The live session (``session(id:)``): every use is the same here, the session's own actor serialises its requests.
    package func checkOut(id: String, for use: SessionUse) -> SessionLookup<Session> {
        session(id: id).map { .found(SessionCheckout(id: id, session: $0)) } ?? .absent
    }

    /// Nothing to keep: the live session was changed in place.
    package func checkIn(_ checkout: SessionCheckout<Session>) {}

    /// Moves the checked-out session to a fresh id (``rotate(id:)``).
    package func rotate(_ checkout: SessionCheckout<Session>) -> String? {
        guard let newID = rotate(id: checkout.id) else { return nil }
        checkout.moved(to: newID)
        return newID
    }

    /// Stores a new session started by `address` under a fresh id and returns the id, or nil when the cap is reached and
    /// every session is in use.
    public func insert(_ session: Session, address: String? = nil) -> String? {
        let now = now()
        let settings = settings.current
        if entries.count >= max(1, settings.maximumSessions) || now - lastSweep >= Self.sweepInterval {
            removeExpired(now: now, settings: settings)
            if entries.count >= max(1, settings.maximumSessions), !evictUnused() { return nil }
        }
        let id = SecureToken.make()
        entries[id] = Entry(session: session, created: now, lastUsed: now, address: address ?? "")
        unused[address ?? "", default: []].append(id)
        return id
    }

    /// Whether a new session would be stored now (expired ones are dropped first, and one never used could be pushed out).
    package func hasRoom() -> Bool {
        let settings = settings.current
        guard entries.count >= max(1, settings.maximumSessions) else { return true }
        removeExpired(now: now(), settings: settings)
        return entries.count < max(1, settings.maximumSessions) || !unused.isEmpty
    }

    /// The live session with this id (touching it and marking it used), or nil when unknown or expired.
    public func session(id: String) -> Session? {
        let now = now()
        guard var entry = entries[id] else { return nil }
        guard !Self.isExpired(entry, now: now, settings: settings.current) else {
            remove(id: id)
            return nil
        }
        entry.lastUsed = now
        if !entry.used {
            entry.used = true
            forgetUnused(id, address: entry.address)
        }
        entries[id] = entry
        return entry.session
    }

    /// How long the session has not been used, without touching it; nil when unknown.
    package func idleDuration(id: String) -> Duration? {
        entries[id].map { now() - $0.lastUsed }
    }

    /// Moves a session to a fresh id (after sign-in), returning the new id.
    func rotate(id: String) -> String? {
        guard var entry = entries.removeValue(forKey: id) else { return nil }
        if !entry.used {
            entry.used = true
            forgetUnused(id, address: entry.address)
        }
        let newID = SecureToken.make()
        entries[newID] = entry
        return newID
    }

    /// Forgets a session.
    public func remove(id: String) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if !entry.used { forgetUnused(id, address: entry.address) }
    }

    /// The number of stored sessions.
    public var count: Int { entries.count }

    private static func isExpired(_ entry: Entry, now: ContinuousClock.Instant, settings: SessionSettings) -> Bool {
        now - entry.lastUsed > .seconds(settings.idleTimeoutSeconds) || now - entry.created > .seconds(settings.absoluteTimeoutSeconds)
    }

    private func removeExpired(now: ContinuousClock.Instant, settings: SessionSettings) {
        lastSweep = now
        guard entries.values.contains(where: { Self.isExpired($0, now: now, settings: settings) }) else { return }
        entries = entries.filter { !Self.isExpired($0.value, now: now, settings: settings) }
        unused = unused.compactMapValues { ids in
            let live = ids.filter { entries[$0] != nil }
            return live.isEmpty ? nil : live
        }
    }

    /// Pushes out the oldest never-used session of the address holding the most of them; false when there is none.
    private func evictUnused() -> Bool {
        guard let (address, ids) = unused.max(by: { $0.value.count < $1.value.count }), let id = ids.first else { return false }
        entries[id] = nil
        forgetUnused(id, address: address)
        evictions += 1
        return true
    }

    private func forgetUnused(_ id: String, address: String) {
        guard var ids = unused[address], let index = ids.firstIndex(of: id) else { return }
        ids.remove(at: index)
        unused[address] = ids.isEmpty ? nil : ids
    }
}
