import Logging

/// What the gateway logs.
public struct LoggingSettings: Sendable {
    /// How log lines look.
    public enum Format: String, Sendable {
        /// `time level label: metadata message`, for people.
        case text
        /// One JSON object per line, for log collectors.
        case json
    }

    /// The lowest level written (default `info`).
    public var level: Logger.Level
    /// Text or JSON lines (default text); both go to standard error.
    public var format: Format = .text

    /// A logger with this level and format.
    public func makeLogger(label: String) -> Logger {
        let format = format
        var logger = Logger(label: label) { label -> any LogHandler in
            format == .json ? JSONLogHandler(label: label) : TextLogHandler(label: label)
        }
        logger.logLevel = level
        return logger
    }

    /// Creates logging settings.
    /// - Parameter level: The lowest level written.
    public init(level: Logger.Level = .info) {
        self.level = level
    }
}
