import Logging
import Synchronization
import Testing

@testable import HAAPI

/// ``FlowLogger``: every line carries the flow's id, as a logger with that metadata set would write it.
@Suite("A flow's logger: its id on every line")
struct FlowLoggerTests {
    private final class Events: Sendable {
        let all = Mutex<[(level: Logger.Level, message: String, metadata: Logger.Metadata, source: String)]>([])
    }

    private struct Handler: LogHandler {
        let events: Events
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            events.all.withLock { $0.append((event.level, event.message.description, merged, event.source)) }
        }
    }

    @Test("the id is added to each line's metadata, a line's own value of the key wins, levels below the logger's are not written")
    func idOnEveryLine() {
        let events = Events()
        var base = Logger(label: "test") { _ in Handler(events: events) }
        base[metadataKey: "hb.request.id"] = "r1"
        let logger = FlowLogger(base, key: "flow", value: "AeVy")
        logger.info("sign-in started")
        logger.warning("upstream call failed", metadata: ["error": "timeout"])
        logger.notice("given", metadata: ["flow": "other"])
        logger.debug("not written at info")
        let written = events.all.withLock { $0 }
        #expect(written.map(\.message) == ["sign-in started", "upstream call failed", "given"])
        #expect(written.map(\.level) == [.info, .warning, .notice])
        #expect(written[0].metadata == ["flow": "AeVy", "hb.request.id": "r1"])
        #expect(written[1].metadata == ["flow": "AeVy", "hb.request.id": "r1", "error": "timeout"])
        #expect(written[2].metadata["flow"] == "other")
        #expect(written.allSatisfy { $0.source == "HAAPITests" }, "the source is the caller's module")
    }
}
