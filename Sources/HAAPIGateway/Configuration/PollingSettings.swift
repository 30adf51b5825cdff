/// Polling steps, refreshed by the page itself (no JavaScript needed).
public struct PollingSettings: Sendable {
    /// The refresh interval when the server suggests none (default 2 s).
    public var defaultIntervalSeconds: Int
    /// After this long on one polling step the flow ends with a clear page (default 300 s).
    public var maximumWaitSeconds: Int

    /// Creates polling settings.
    /// - Parameters:
    ///   - defaultIntervalSeconds: The fallback interval.
    ///   - maximumWaitSeconds: The maximum wait.
    public init(defaultIntervalSeconds: Int = 2, maximumWaitSeconds: Int = 300) {
        self.defaultIntervalSeconds = defaultIntervalSeconds
        self.maximumWaitSeconds = maximumWaitSeconds
    }
}
