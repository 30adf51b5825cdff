import HAAPIGateway
import Logging
import Synchronization

/// Sign-in sessions in PostgreSQL (`sessions.store: postgres`): every request loads its sign-in from the database (the
/// page right after a post: from what this replica saved), acts, and saves it, so that a sign-in survives a restart or
/// a crash of the replica that served its last page and any replica serves its next one.
///
/// - A session is a ``SignInDocument`` (record and flow state) sealed in ``PostgresSessionStorage``; a check-in writes
///   it only when it changed, over the version it loaded (compare and swap).
/// - A request that will act (a post, a poll) claims the row first (``PostgresSessionStorage/claim(id:claim:lease:knownVersion:)``):
///   another acting request waits until the claim is released (and then finds its page stale, as two posts in one
///   process do), a poll does not poll again; a claim's lease is renewed while the request runs (``ClaimRenewals``), so
///   a replica that dies holds the sign-in for at most a lease (``SessionClaimTiming``).
/// - The sessions this replica served last stay decoded (``SessionCache``): a request for one asks the database only
///   whether its row is still at the cached version, and reads, opens and decodes the document only when it is not. The
///   page a post redirects to asks nothing when the redirect names the version this replica saved and kept
///   (``SessionUse/readingAfterPost(savedVersion:)``).
/// - A row that does not open (a removed key) or decode (another format, a flow that does not load here) is
///   ``SessionLookup/unreadable``: that sign-in starts again with a notice.
/// - A database that fails to answer gives "your sign-in is kept, try again" pages (503), and for a short pause after
///   a failure requests get it at once (``DatabaseOutage``).
/// - The cap (`sessions.maximumSessions`) counts every replica's sessions; at the cap a new sign-in pushes out a session
///   nobody came back to since its first page, the oldest of the address holding the most of them
///   (``PostgresSessionStorage/insert(id:document:lifetimes:address:withinCap:)``), as the memory store does, and is
///   refused only when every session is in use. Expired rows are deleted by ``PostgresSessionStorage/run()``.
final class PostgresSessionStore: SessionStore, Sendable {
    typealias Session = SignInSession

    let storage: PostgresSessionStorage
    let restorer: SignInRestorer
    let timing: SessionClaimTiming
    /// Renews the claims of this replica's requests while they run.
    let renewals: ClaimRenewals
    let cache: SessionCache<SignInSession>
    private let settings: SettingsSource<SessionSettings>
    /// The last count of live sessions, and when it was read.
    private let lastCount = Mutex<(at: ContinuousClock.Instant?, count: Int)>((nil, 0))
    private let evicted = Mutex(0)
    private let logger: Logger

    /// How many decoded sign-ins a replica keeps at most (``SessionCache``).
    static let cacheCapacity = 4096

    init(
        storage: PostgresSessionStorage,
        settings: SettingsSource<SessionSettings>,
        restorer: SignInRestorer,
        timing: SessionClaimTiming = .init(),
        cacheCapacity: Int = PostgresSessionStore.cacheCapacity,
        logger: Logger
    ) {
        self.storage = storage
        self.cache = SessionCache(capacity: cacheCapacity)
        self.settings = settings
        self.restorer = restorer
        self.timing = timing
        self.renewals = ClaimRenewals(storage: storage, timing: timing, logger: logger)
        self.logger = logger
    }

    func add(_ session: SignInSession, address: String?) async throws(GatewayError) -> SessionCheckout<SignInSession>? {
        let (document, revision) = try await Self.document(of: session)
        let id = SecureToken.make()
        let settings = settings.current
        let lifetimes = SessionLifetimes(settings)
        let cap = max(1, settings.maximumSessions)
        if try await !isNear(cap) {
            _ = try await database("store a new sign-in", starting: true) { () throws(PostgresStorageError) in
                try await storage.insert(id: id, document: document, lifetimes: lifetimes, address: address)
            }
            // This replica's own sign-ins count at once (the count is read again at most every second).
            lastCount.withLock { $0.count += 1 }
        } else {
            // Near the cap the replicas take turns, so that it holds for them together.
            let insertion = try await database("store a new sign-in at the cap", starting: true) { () throws(PostgresStorageError) in
                try await storage.insert(id: id, document: document, lifetimes: lifetimes, address: address, withinCap: cap)
            }
            switch insertion {
            case .inserted: break
            case .insertedAfterPushingOut: evicted.withLock { $0 += 1 }
            case .full: return nil
            }
        }
        return SessionCheckout(id: id, session: session, hold: SessionTicket(version: 1, document: document, revision: revision))
    }

    /// Whether the sessions of every replica are below the cap, by a count at most a second old far from the cap (each
    /// new sign-in counting every row would grow with the table), a fresh one near it, or one nobody came back to could
    /// be pushed out.
    func hasRoom() async throws(GatewayError) -> Bool {
        let cap = max(1, settings.current.maximumSessions)
        if try await recentCount(near: cap) < cap { return true }
        return try await database("look for untouched sign-ins", starting: true) { () throws(PostgresStorageError) in try await storage.hasUntouched()
        }
    }

    func checkOut(id: String, for use: SessionUse) async throws(GatewayError) -> SessionLookup<SignInSession> {
        var cached = cache.take(id: id)
        if let entry = cached, await entry.session.revision != entry.revision { cached = nil }
        let stored: StoredSession?
        let version: Int64
        var claim: String?
        switch use {
        case .readingAfterPost(let saved) where cached?.version == saved:
            // The version a post of this replica saved and kept, named by the redirect that brought the browser here.
            (stored, version) = (nil, saved)
        case .reading, .readingAfterPost:
            let loaded = try await database("load a sign-in") { () throws(PostgresStorageError) in
                try await storage.load(id: id, knownVersion: cached?.version)
            }
            switch loaded {
            case .found(let found): (stored, version) = (found, found.version)
            case .current(let current): (stored, version) = (nil, current)
            case .absent: return .absent
            case .unreadable(let error): return unreadable(error.description)
            }
        case .acting, .polling:
            let name = SecureToken.make()
            let deadline = ContinuousClock.now + (use == .acting ? timing.actingWait : .zero)
            var pause: Duration = .milliseconds(20)
            claiming: while true {
                let answer = try await database("claim a sign-in") { () throws(PostgresStorageError) in
                    try await storage.claim(id: id, claim: name, lease: timing.lease, knownVersion: cached?.version)
                }
                switch answer {
                case .claimed(let found): (stored, version) = (found, found.version)
                case .claimedCurrent(let current): (stored, version) = (nil, current)
                case .absent: return .absent
                case .unreadable(let error): return unreadable(error.description)
                case .busy:
                    guard ContinuousClock.now + pause < deadline else {
                        // Still what the row held when cached: the request holding it may change nothing.
                        if let cached { cache.keep(cached, id: id) }
                        return .busy
                    }
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, .milliseconds(250))
                    continue claiming
                }
                claim = name
                break claiming
            }
        }
        let session: SignInSession
        let document: [UInt8]
        if let stored {
            let restored: SignInSession?
            do throws(GatewayError) {
                restored = try restorer.session(from: stored.document)
            } catch {
                if let claim { try? await storage.release(id: id, claim: claim) }
                throw error
            }
            guard let restored else {
                if let claim { try? await storage.release(id: id, claim: claim) }
                return .unreadable
            }
            (session, document) = (restored, stored.document)
        } else if let cached {
            (session, document) = (cached.session, cached.document)
        } else {
            // Only a caller that named a version is told the row is still at it.
            if let claim { try? await storage.release(id: id, claim: claim) }
            throw GatewayError(.internalError, "the session database answered without a document")
        }
        if let claim { renewals.hold(id: id, claim: claim) }
        let ticket = SessionTicket(version: version, document: document, revision: await session.revision, claim: claim)
        return .found(SessionCheckout(id: id, session: session, hold: ticket))
    }

    func checkIn(_ checkout: SessionCheckout<SignInSession>) async throws(GatewayError) {
        guard let ticket = checkout.hold as? SessionTicket else { return }
        // Unchanged since loaded or last saved (a page shown, a check-in again at the end of the request): nothing to
        // encode or write, only a claim to release.
        let current = try await Self.changedDocument(of: checkout.session, since: ticket)
        let (version, loaded, claim) = endHold(of: ticket)
        let id = checkout.id
        do throws(GatewayError) {
            guard let current, current.document != loaded else {
                if let claim {
                    try await database("release a sign-in") { () throws(PostgresStorageError) in try await storage.release(id: id, claim: claim) }
                }
                if let current { ticket.state.withLock { $0.revision = current.revision } }
                await keep(checkout)
                return
            }
            let saved = try await database("save a sign-in") { () throws(PostgresStorageError) in
                try await storage.save(id: id, document: current.document, expectedVersion: version, claim: claim)
            }
            switch saved {
            case .saved(let newVersion):
                ticket.saved(version: newVersion, document: current.document, revision: current.revision)
                await keep(checkout)
            case .conflict:
                // Only a request that held no claim gets here (a page shown while another request acted): what it changed
                // was the page's one-time notices, which the other request's state replaces.
                logger.debug("sign-in changed by another request meanwhile; this request's change is not kept")
            case .gone:
                break
            }
        } catch {
            // Kept for a later check-in of this request (the claim's lease ends it otherwise).
            ticket.state.withLock { $0.claim = claim }
            throw error
        }
    }

    func idleDuration(id: String) async throws(GatewayError) -> Duration? {
        try await database("read a sign-in's idle time") { () throws(PostgresStorageError) in try await storage.idleDuration(id: id) }
    }

    /// Saves the sign-in under a fresh id in one statement (releasing the request's claim).
    func rotate(_ checkout: SessionCheckout<SignInSession>) async throws(GatewayError) -> String? {
        guard let ticket = checkout.hold as? SessionTicket else { return nil }
        let current = try await Self.changedDocument(of: checkout.session, since: ticket)
        let (version, loaded, claim) = endHold(of: ticket)
        let oldID = checkout.id
        // Kept again under the new id once moved.
        cache.remove(id: oldID)
        ticket.state.withLock { $0.cached = false }
        let document = current?.document ?? loaded
        let rotation: SessionRotation
        do throws(GatewayError) {
            rotation = try await database("rotate a sign-in's id") { () throws(PostgresStorageError) in
                try await storage.rotate(id: oldID, document: document, expectedVersion: version, claim: claim)
            }
        } catch {
            ticket.state.withLock { $0.claim = claim }
            throw error
        }
        switch rotation {
        case .rotated(let newID, let newVersion):
            ticket.saved(version: newVersion, document: document, revision: current?.revision)
            checkout.moved(to: newID)
            await keep(checkout)
            return newID
        case .conflict:
            logger.warning("a sign-in changed by another request meanwhile; its id is not rotated")
            return nil
        case .gone:
            return nil
        }
    }

    func remove(id: String) async {
        cache.remove(id: id)
        do throws(GatewayError) {
            try await database("remove a sign-in") { () throws(PostgresStorageError) in try await storage.remove(id: id) }
        } catch {
            logger.warning("sign-in not removed from the database; it expires instead", metadata: ["error": "\(error.message)"])
        }
    }

    /// The live sessions of every replica, by a count at most a second old (the last count read when the database does
    /// not answer): `/metrics` asks on every scrape, and a flood of scrapes must not become a flood of counts.
    var count: Int {
        get async {
            (try? await recentCount(near: .max)) ?? lastCount.withLock { $0.count }
        }
    }

    /// The sessions this replica pushed out at the cap to make room for a new sign-in (one nobody came back to).
    var evictions: Int { evicted.withLock { $0 } }

    // MARK: - Private

    /// The live sessions of every replica, counted again when the last count is a second old or more, or when it was
    /// near the cap (``nearness(of:)``): far from the cap a count a second old is good enough, near it the other
    /// replicas' sign-ins of that second must not take the table past it.
    private func recentCount(near cap: Int) async throws(GatewayError) -> Int {
        if let recent = freshCount(), recent < Self.nearness(of: cap) { return recent }
        return try await countAgain()
    }

    /// Whether a new sign-in is stored under the cap's turn: a count under a second old decides, an older one is read
    /// again. Near the cap a fresh count is not read here: the insert under the cap's turn counts anyway.
    private func isNear(_ cap: Int) async throws(GatewayError) -> Bool {
        let count = if let fresh = freshCount() { fresh } else { try await countAgain() }
        return count >= Self.nearness(of: cap)
    }

    /// The last count when it is under a second old.
    private func freshCount() -> Int? {
        let now = ContinuousClock.now
        return lastCount.withLock { $0.at.map { now - $0 < .seconds(1) } ?? false ? $0.count : nil }
    }

    /// The live sessions of every replica, counted now (and kept for a second).
    private func countAgain() async throws(GatewayError) -> Int {
        let now = ContinuousClock.now
        let count = try await database("count sessions", starting: true) { () throws(PostgresStorageError) in try await storage.count() }
        lastCount.withLock { $0 = (now, count) }
        return count
    }

    /// Where "near the cap" begins: its second half. Below it a count up to a second old decides (plus this replica's
    /// own sign-ins since); from it on, every new session is stored one at a time for the replicas together, counting
    /// afresh under that turn. The other replicas' sign-ins of the last second before can take the table past the cap
    /// by as many; each new sign-in then pushes out up to three untouched sessions until it is back.
    private static func nearness(of cap: Int) -> Int {
        cap - max(1, cap / 2)
    }

    /// The session's document and revision when it changed since `ticket` was written (nil when unchanged: nothing to
    /// encode).
    private static func changedDocument(
        of session: SignInSession,
        since ticket: SessionTicket
    ) async throws(GatewayError)
        -> (document: [UInt8], revision: Int)?
    {
        guard await session.revision != ticket.state.withLock({ $0.revision }) else { return nil }
        return try await document(of: session)
    }

    /// The document of a live session, and the session's revision it shows.
    private static func document(of session: SignInSession) async throws(GatewayError) -> (document: [UInt8], revision: Int) {
        let (document, revision) = await session.document()
        do {
            return (try document.encoded(), revision)
        } catch {
            throw GatewayError(.internalError, "a sign-in could not be encoded for the session store")
        }
    }

    /// Keeps a checked-in session decoded for this replica's next request for it, when it is still what was stored
    /// (nothing changed it since the check-in).
    private func keep(_ checkout: SessionCheckout<SignInSession>) async {
        guard let ticket = checkout.hold as? SessionTicket else { return }
        let (version, document, revision, cachedBefore) = ticket.state.withLock { state in
            defer { state.cached = true }
            return (state.version, state.document, state.revision, state.cached)
        }
        guard !cachedBefore, await checkout.session.revision == revision else { return }
        cache.keep(SessionCache.Entry(session: checkout.session, version: version, document: document, revision: revision), id: checkout.id)
    }

    private func unreadable(_ reason: String) -> SessionLookup<SignInSession> {
        logger.warning("a stored sign-in does not open; it starts again", metadata: ["error": "\(reason)"])
        return .unreadable
    }

    /// Takes the request's claim from its ticket for a check-in (whose write releases it) and stops renewing it.
    private func endHold(of ticket: SessionTicket) -> (version: Int64, document: [UInt8], claim: String?) {
        let hold = ticket.takeHold()
        if let claim = hold.claim { renewals.release(claim: claim) }
        return hold
    }

    /// Runs a database operation for a person's page: refused at once while the database cannot serve
    /// (``WhileDatabaseDown/refuseAtOnce``), and every failure "try again" (503), logged naming `operation`. A person
    /// starting a sign-in (`starting`) is told that sign-in is unavailable; one in the middle of a sign-in, that it is kept.
    private func database<Value>(
        _ operation: String,
        starting: Bool = false,
        _ body: () async throws(PostgresStorageError) -> Value
    ) async throws(GatewayError) -> Value {
        let refusal = starting ? Self.unavailableToStart : Self.unavailable
        return try await storage.database.storeCall(
            operation,
            whileDown: .refuseAtOnce,
            refusal: refusal,
            logger: logger,
            failure: "session database failed",
            body
        )
    }

    private static let unavailable = GatewayError(.storeUnavailable, .sessionStoreUnavailable).retrying(after: 5)
    private static let unavailableToStart = GatewayError(.storeUnavailable, .signInStoreUnavailable).retrying(after: 5)
}
