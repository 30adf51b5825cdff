/// Browser sessions: their lifetimes, where they are kept, and how many failed form posts they may make.
public struct SessionSettings: Sendable {
    /// A session unused this long ends (default 600 s).
    public var idleTimeoutSeconds: Int
    /// A session ends this long after it began, used or not (default 3600 s).
    public var absoluteTimeoutSeconds: Int
    /// At most this many sessions (default 10 000). In memory, at the cap a new sign-in first pushes out a session nobody
    /// has come back to since its first page (of the client address holding most of them); when every session is in use
    /// it gets a 503 page while the sessions under way go on. In PostgreSQL the cap counts every replica's sessions, and
    /// at the cap a new sign-in gets the 503 page.
    public var maximumSessions: Int
    /// At most this many new sign-ins per client address within ``newSessionWindowSeconds``; beyond it `GET /` gets a
    /// 429 page with `Retry-After` and no flow is started upstream (default 60; 0: no bound).
    public var maximumNewSessionsPerAddress: Int
    /// The sliding window new sign-ins are counted in (default 60 s).
    public var newSessionWindowSeconds: Int
    /// At most this many failed posts per session within ``failedPostWindowSeconds``; beyond it posts get a 429 page (default 10).
    public var maximumFailedPostsPerSession: Int
    /// At most this many failed posts per client address within ``failedPostWindowSeconds`` (default 100).
    public var maximumFailedPostsPerAddress: Int
    /// The sliding window failed posts are counted in (default 300 s).
    public var failedPostWindowSeconds: Int
    /// Where sessions are kept (`sessions.store`, default memory).
    public var store: SessionStoreSettings = .memory

    /// Creates session settings.
    /// - Parameters:
    ///   - idleTimeoutSeconds: The idle lifetime.
    ///   - absoluteTimeoutSeconds: The absolute lifetime.
    ///   - maximumSessions: The cap.
    ///   - maximumNewSessionsPerAddress: The bound on new sign-ins per client address (0: none).
    ///   - newSessionWindowSeconds: The window of that bound.
    ///   - maximumFailedPostsPerSession: The failed-post bound per session.
    ///   - maximumFailedPostsPerAddress: The failed-post bound per client address.
    ///   - failedPostWindowSeconds: The window of both bounds.
    public init(
        idleTimeoutSeconds: Int = 600,
        absoluteTimeoutSeconds: Int = 3600,
        maximumSessions: Int = 10_000,
        maximumNewSessionsPerAddress: Int = 60,
        newSessionWindowSeconds: Int = 60,
        maximumFailedPostsPerSession: Int = 10,
        maximumFailedPostsPerAddress: Int = 100,
        failedPostWindowSeconds: Int = 300
    ) {
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.absoluteTimeoutSeconds = absoluteTimeoutSeconds
        self.maximumSessions = maximumSessions
        self.maximumNewSessionsPerAddress = maximumNewSessionsPerAddress
        self.newSessionWindowSeconds = newSessionWindowSeconds
        self.maximumFailedPostsPerSession = maximumFailedPostsPerSession
        self.maximumFailedPostsPerAddress = maximumFailedPostsPerAddress
        self.failedPostWindowSeconds = failedPostWindowSeconds
    }
}
