import Foundation
import Logging

/// Collects every log line (message and metadata) at trace level.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    var logger: Logger {
        var logger = Logger(label: "gateway-capture") { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }
}

struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = self.metadata.merging(event.metadata ?? [:]) { _, new in new }
        capture.append("\(event.level) \(event.message) \(all) \(event.error.map { "\($0)" } ?? "")")
    }
}
