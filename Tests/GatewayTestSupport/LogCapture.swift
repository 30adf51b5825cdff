import Logging
import Synchronization

/// Collects every log line (level, message, metadata and error) at trace level: to read what was logged, and to check
/// that no secret was.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// Every line so far.
    var all: [String] { lines.withLock { $0 } }
    /// Every line so far, one per line.
    var text: String { all.joined(separator: "\n") }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// A logger writing here, at trace level.
    var logger: Logger {
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }
}

/// The handler of ``LogCapture``'s logger.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        capture.append("\(event.level) \(event.message) \(merged) \(event.error.map { "\($0)" } ?? "")")
    }
}
