/// Browser sessions held in memory, and how many failed form posts they may make.
public struct SessionSettings: Sendable {
    /// A session unused this long ends (default 600 s).
    public var idleTimeoutSeconds: Int
    /// A session ends this long after it began, used or not (default 3600 s).
    public var absoluteTimeoutSeconds: Int
    /// At most this many sessions; beyond it a new sign-in gets a 503 page while the sessions under way go on (default 10 000).
    public var maximumSessions: Int
    /// At most this many failed posts per session within ``failedPostWindowSeconds``; beyond it posts get a 429 page (default 10).
    public var maximumFailedPostsPerSession: Int
    /// At most this many failed posts per client address within ``failedPostWindowSeconds`` (default 100).
    public var maximumFailedPostsPerAddress: Int
    /// The sliding window failed posts are counted in (default 300 s).
    public var failedPostWindowSeconds: Int

    /// Creates session settings.
    /// - Parameters:
    ///   - idleTimeoutSeconds: The idle lifetime.
    ///   - absoluteTimeoutSeconds: The absolute lifetime.
    ///   - maximumSessions: The cap.
    ///   - maximumFailedPostsPerSession: The failed-post bound per session.
    ///   - maximumFailedPostsPerAddress: The failed-post bound per client address.
    ///   - failedPostWindowSeconds: The window of both bounds.
    public init(
        idleTimeoutSeconds: Int = 600, absoluteTimeoutSeconds: Int = 3600, maximumSessions: Int = 10_000, maximumFailedPostsPerSession: Int = 10,
        maximumFailedPostsPerAddress: Int = 100, failedPostWindowSeconds: Int = 300
    ) {
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.absoluteTimeoutSeconds = absoluteTimeoutSeconds
        self.maximumSessions = maximumSessions
        self.maximumFailedPostsPerSession = maximumFailedPostsPerSession
        self.maximumFailedPostsPerAddress = maximumFailedPostsPerAddress
        self.failedPostWindowSeconds = failedPostWindowSeconds
    }
}
