import Foundation

/// In-memory sessions by opaque id, with idle and absolute lifetimes and a cap: at the cap a new session is refused
/// (expired ones are dropped first), so that sign-ins under way are never pushed out by new ones. Expired sessions
/// are also swept out when a session is stored ``sweepInterval`` or more after the last sweep, so that sessions left
/// behind (a closed tab) give their memory back within about an idle lifetime.
public actor MemorySessionStore<Session: Sendable> {
    private struct Entry {
        let session: Session
        let created: ContinuousClock.Instant
        var lastUsed: ContinuousClock.Instant
    }

    private var entries: [String: Entry] = [:]
    private var settings: SessionSettings
    private let now: @Sendable () -> ContinuousClock.Instant
    private var lastSweep: ContinuousClock.Instant

    /// How often storing a session also drops the expired ones (a pass over every session).
    static var sweepInterval: Duration { .seconds(30) }

    /// - Parameter now: The clock (injected by tests).
    public init(settings: SessionSettings, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
        self.lastSweep = now()
    }

    /// Applies new lifetimes and cap (a reload); they hold for every session from now on.
    func update(settings: SessionSettings) {
        self.settings = settings
    }

    /// Stores a new session under a fresh id and returns the id, or nil when the cap is reached.
    public func insert(_ session: Session) -> String? {
        let now = now()
        if entries.count >= max(1, settings.maximumSessions) || now - lastSweep >= Self.sweepInterval {
            removeExpired(now: now)
            guard entries.count < max(1, settings.maximumSessions) else { return nil }
        }
        let id = SecureToken.make()
        entries[id] = Entry(session: session, created: now, lastUsed: now)
        return id
    }

    /// Whether a new session would be stored now (expired ones are dropped first).
    func hasRoom() -> Bool {
        guard entries.count >= max(1, settings.maximumSessions) else { return true }
        removeExpired(now: now())
        return entries.count < max(1, settings.maximumSessions)
    }

    /// The live session with this id (touching it), or nil when unknown or expired.
    public func session(id: String) -> Session? {
        let now = now()
        guard var entry = entries[id] else { return nil }
        guard !isExpired(entry, now: now) else {
            entries[id] = nil
            return nil
        }
        entry.lastUsed = now
        entries[id] = entry
        return entry.session
    }

    /// How long the session has not been used, without touching it; nil when unknown.
    func idleDuration(id: String) -> Duration? {
        entries[id].map { now() - $0.lastUsed }
    }

    /// Moves a session to a fresh id (after sign-in), returning the new id.
    func rotate(id: String) -> String? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        let newID = SecureToken.make()
        entries[newID] = entry
        return newID
    }

    /// Forgets a session.
    public func remove(id: String) {
        entries[id] = nil
    }

    /// The number of stored sessions.
    public var count: Int { entries.count }

    private func isExpired(_ entry: Entry, now: ContinuousClock.Instant) -> Bool {
        now - entry.lastUsed > .seconds(settings.idleTimeoutSeconds) || now - entry.created > .seconds(settings.absoluteTimeoutSeconds)
    }

    private func removeExpired(now: ContinuousClock.Instant) {
        lastSweep = now
        guard entries.values.contains(where: { isExpired($0, now: now) }) else { return }
        entries = entries.filter { !isExpired($0.value, now: now) }
    }
}
