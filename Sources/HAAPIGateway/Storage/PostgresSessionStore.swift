import Logging
import Synchronization

/// Sign-in sessions in PostgreSQL (`sessions.store: postgres`): every request loads its sign-in from the database,
/// acts, and saves it, so that a sign-in survives a restart or a crash of the replica that served its last page and
/// any replica serves its next one.
///
/// - A session is a ``SignInDocument`` (record and flow state) sealed in ``PostgresSessionStorage``; a check-in writes
///   it only when it changed, over the version it loaded (compare and swap).
/// - A request that will act (a post, a poll) claims the row first (``PostgresSessionStorage/claim(id:claim:lease:)``):
///   another acting request waits until the claim is released (and then finds its page stale, as two posts in one
///   process do), a poll does not poll again; a claim's lease is renewed while the request runs, so a replica that
///   dies holds the sign-in for at most a lease (``SessionClaimTiming``).
/// - A row that does not open (a removed key) or decode (another format, a flow that does not load here) is
///   ``SessionLookup/unreadable``: that sign-in starts again with a notice.
/// - A database that fails to answer gives "your sign-in is kept, try again" pages (503), and for a short pause after
///   a failure requests get it at once (``DatabaseOutage``).
/// - The cap (`sessions.maximumSessions`) counts every replica's sessions; at the cap a new sign-in is refused (no
///   session is pushed out). Expired rows are deleted by ``PostgresSessionStorage/run()``.
final class PostgresSessionStore: SessionStore, Sendable {
    typealias Session = SignInSession

    let storage: PostgresSessionStorage
    let restorer: SignInRestorer
    let timing: SessionClaimTiming
    private let settings: Mutex<SessionSettings>
    /// The last count of live sessions, and when it was read.
    private let lastCount = Mutex<(at: ContinuousClock.Instant?, count: Int)>((nil, 0))
    private let outage = DatabaseOutage()
    private let logger: Logger

    init(storage: PostgresSessionStorage, settings: SessionSettings, restorer: SignInRestorer, timing: SessionClaimTiming = .init(), logger: Logger) {
        self.storage = storage
        self.settings = Mutex(settings)
        self.restorer = restorer
        self.timing = timing
        self.logger = logger
    }

    func add(_ session: SignInSession, address: String?) async throws(GatewayError) -> SessionCheckout<SignInSession>? {
        let (document, revision) = try await Self.document(of: session)
        let id = SecureToken.make()
        let lifetimes = SessionLifetimes(settings.withLock { $0 })
        try await database("store a new sign-in") { () throws(PostgresStorageError) in
            try await storage.insert(id: id, document: document, lifetimes: lifetimes, address: address)
        }
        return SessionCheckout(id: id, session: session, ticket: SessionTicket(version: 1, document: document, revision: revision))
    }

    /// Whether the sessions of every replica are below the cap, by a count at most a second old (each new sign-in
    /// counting every row would grow with the table; the cap is approximate across replicas anyway).
    func hasRoom() async throws(GatewayError) -> Bool {
        let now = ContinuousClock.now
        let count: Int
        if let recent = lastCount.withLock({ $0.at.map { now - $0 < .seconds(1) } ?? false ? $0.count : nil }) {
            count = recent
        } else {
            count = try await database("count sessions") { () throws(PostgresStorageError) in try await storage.count() }
            lastCount.withLock { $0 = (now, count) }
        }
        return count < max(1, settings.withLock { $0.maximumSessions })
    }

    func checkOut(id: String, for use: SessionUse) async throws(GatewayError) -> SessionLookup<SignInSession> {
        let stored: StoredSession
        var claim: String?
        switch use {
        case .reading:
            switch try await database("load a sign-in", { () throws(PostgresStorageError) in try await storage.load(id: id) }) {
            case .found(let found): stored = found
            case .absent: return .absent
            case .unreadable(let error): return unreadable(error.description)
            }
        case .acting, .polling:
            let name = SecureToken.make()
            let deadline = ContinuousClock.now + (use == .acting ? timing.actingWait : .zero)
            var pause: Duration = .milliseconds(20)
            while true {
                let answer = try await database("claim a sign-in") { () throws(PostgresStorageError) in
                    try await storage.claim(id: id, claim: name, lease: timing.lease)
                }
                switch answer {
                case .claimed(let found):
                    stored = found
                    claim = name
                case .absent: return .absent
                case .unreadable(let error): return unreadable(error.description)
                case .busy:
                    guard ContinuousClock.now + pause < deadline else { return .busy }
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, .milliseconds(250))
                    continue
                }
                break
            }
        }
        let session: SignInSession?
        do throws(GatewayError) {
            session = try restorer.session(from: stored.document)
        } catch {
            if let claim { try? await storage.release(id: id, claim: claim) }
            throw error
        }
        guard let session else {
            if let claim { try? await storage.release(id: id, claim: claim) }
            return .unreadable
        }
        let renewal = claim.map { renew(id: id, claim: $0) }
        let ticket = SessionTicket(version: stored.version, document: stored.document, revision: await session.revision, claim: claim, renewal: renewal)
        return .found(SessionCheckout(id: id, session: session, ticket: ticket))
    }

    func checkIn(_ checkout: SessionCheckout<SignInSession>) async throws(GatewayError) {
        guard let ticket = checkout.ticket else { return }
        // Unchanged since loaded or last saved (a page shown, a check-in again at the end of the request): nothing to
        // encode or write, only a claim to release.
        let unchanged = await checkout.session.revision == ticket.state.withLock { $0.revision }
        let current: (document: [UInt8], revision: Int)? = unchanged ? nil : try await Self.document(of: checkout.session)
        let (version, loaded, claim) = ticket.state.withLock { state in
            defer {
                state.renewal?.cancel()
                state.renewal = nil
                state.claim = nil
            }
            return (state.version, state.document, state.claim)
        }
        let id = checkout.id
        do throws(GatewayError) {
            guard let current, current.document != loaded else {
                if let claim { try await database("release a sign-in") { () throws(PostgresStorageError) in try await storage.release(id: id, claim: claim) } }
                if let current { ticket.state.withLock { $0.revision = current.revision } }
                return
            }
            let saved = try await database("save a sign-in") { () throws(PostgresStorageError) in
                try await storage.save(id: id, document: current.document, expectedVersion: version, claim: claim)
            }
            switch saved {
            case .saved(let newVersion):
                ticket.state.withLock { state in
                    state.version = newVersion
                    state.document = current.document
                    state.revision = current.revision
                }
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

    func rotate(_ checkout: SessionCheckout<SignInSession>) async throws(GatewayError) -> String? {
        try await checkIn(checkout)
        let id = checkout.id
        let rotation = try await database("rotate a sign-in's id") { () throws(PostgresStorageError) in try await storage.rotate(id: id) }
        switch rotation {
        case .rotated(let newID, let version):
            checkout.moved(to: newID)
            checkout.ticket?.state.withLock { $0.version = version }
            return newID
        case .gone:
            return nil
        case .unreadable(let error):
            logger.warning("a stored sign-in does not open; its id is not rotated", metadata: ["error": "\(error.description)"])
            return nil
        }
    }

    func remove(id: String) async {
        do throws(GatewayError) {
            try await database("remove a sign-in") { () throws(PostgresStorageError) in try await storage.remove(id: id) }
        } catch {
            logger.warning("sign-in not removed from the database; it expires instead", metadata: ["error": "\(error.message)"])
        }
    }

    func update(settings: SessionSettings) {
        self.settings.withLock { $0 = settings }
    }

    /// The live sessions of every replica (the last count read when the database does not answer).
    var count: Int {
        get async {
            if let count = try? await database("count sessions", { () throws(PostgresStorageError) in try await storage.count() }) {
                lastCount.withLock { $0 = (ContinuousClock.now, count) }
            }
            return lastCount.withLock { $0.count }
        }
    }

    /// Always 0: at the cap a new sign-in is refused, no session is pushed out.
    var evictions: Int { 0 }

    // MARK: - Private

    /// The document of a live session, and the session's revision it shows.
    private static func document(of session: SignInSession) async throws(GatewayError) -> (document: [UInt8], revision: Int) {
        let (record, flow, revision) = await session.exportState()
        do {
            return (try SignInDocument(record: record, flow: flow).encoded(), revision)
        } catch {
            throw GatewayError(.internalError, "a sign-in could not be encoded for the session store")
        }
    }

    private func unreadable(_ reason: String) -> SessionLookup<SignInSession> {
        logger.warning("a stored sign-in does not open; it starts again", metadata: ["error": "\(reason)"])
        return .unreadable
    }

    /// Renews a claim every ``SessionClaimTiming/renewal`` until cancelled (at check-in).
    private func renew(id: String, claim: String) -> Task<Void, Never> {
        Task { [storage, timing, logger] in
            while !Task.isCancelled {
                try? await Task.sleep(for: timing.renewal)
                guard !Task.isCancelled else { return }
                do throws(PostgresStorageError) {
                    if try await !storage.renew(id: id, claim: claim, lease: timing.lease) {
                        logger.warning("a request's hold on its sign-in ended before the request did")
                        return
                    }
                } catch {
                    logger.warning("a request's hold on its sign-in could not be renewed", metadata: ["error": "\(error.message)"])
                }
            }
        }
    }

    /// Runs a database operation: at once "try again" (503) while the database is down (``DatabaseOutage``), and every
    /// failure that page, logged naming `operation`.
    private func database<Value>(_ operation: String, _ body: () async throws(PostgresStorageError) -> Value) async throws(GatewayError) -> Value {
        guard !outage.isDown else { throw Self.unavailable }
        do {
            let value = try await body()
            outage.record(nil)
            return value
        } catch {
            outage.record(error)
            logger.warning("session database failed", metadata: ["operation": "\(operation)", "error": "\(error.message)"])
            throw Self.unavailable
        }
    }

    private static let unavailable = GatewayError(.storeUnavailable, .sessionStoreUnavailable).retrying(after: 5)
}
