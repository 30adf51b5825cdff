/// Browser sessions held in memory.
public struct SessionSettings: Sendable {
    /// A session unused this long ends (default 600 s).
    public var idleTimeoutSeconds: Int
    /// A session ends this long after it began, used or not (default 3600 s).
    public var absoluteTimeoutSeconds: Int
    /// At most this many sessions; beyond it the longest-idle one is evicted (default 10 000).
    public var maximumSessions: Int

    /// Creates session settings.
    /// - Parameters:
    ///   - idleTimeoutSeconds: The idle lifetime.
    ///   - absoluteTimeoutSeconds: The absolute lifetime.
    ///   - maximumSessions: The cap.
    public init(idleTimeoutSeconds: Int = 600, absoluteTimeoutSeconds: Int = 3600, maximumSessions: Int = 10_000) {
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.absoluteTimeoutSeconds = absoluteTimeoutSeconds
        self.maximumSessions = maximumSessions
    }
}
