import Logging

/// What the gateway logs.
public struct LoggingSettings: Sendable {
    /// The lowest level written (default `info`).
    public var level: Logger.Level

    /// Creates logging settings.
    /// - Parameter level: The lowest level written.
    public init(level: Logger.Level = .info) {
        self.level = level
    }
}
