import Foundation
import Logging
import Synchronization
import Testing

@testable import HAAPIGateway

/// The gateway's own log handlers: the text lines swift-log's `StreamLogHandler` writes, byte for byte after the time,
/// and the time formatted once a second.
@Suite("Log lines: the text format as swift-log writes it, the time made once a second")
struct LogLineTests {
    /// Lines written to it, in order.
    private final class Lines: TextOutputStream, Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func write(_ string: String) { lines.withLock { $0.append(string) } }
    }

    private struct Failure: Error, CustomStringConvertible {
        var description: String { "the upstream did not answer" }
    }

    /// Logs the same events through swift-log's handler and through ours; both with the same handler metadata.
    private static func bothWrite(_ log: (Logger) -> Void) -> (swiftLog: [String], ours: [String]) {
        let theirs = Lines(), ours = Lines()
        var swiftLogLogger = Logger(label: "haapi-gateway") { StreamLogHandler(label: $0, stream: theirs, metadataProvider: nil) }
        var ourLogger = Logger(label: "haapi-gateway") { TextLogHandler(label: $0, timestamps: LogTimestamps(), write: ours.write) }
        swiftLogLogger[metadataKey: "hb.request.id"] = "5e63"
        ourLogger[metadataKey: "hb.request.id"] = "5e63"
        log(swiftLogLogger)
        log(ourLogger)
        return (theirs.all, ours.all)
    }

    /// A line without its first field, the time.
    private static func afterTime(_ line: String) -> Substring { line.drop { $0 != " " } }

    @Test("every kind of line reads as swift-log's StreamLogHandler writes it, after the time")
    func linesMatchStreamLogHandler() {
        let (theirs, ours) = Self.bothWrite { logger in
            logger.info("request", metadata: ["method": "GET", "path": "/", "status": "200", "milliseconds": "0.8", "flow": "AeVy"])
            logger.notice("no metadata of its own")
            logger.warning("an error", error: Failure(), metadata: ["b": "2", "a": "1"])
            logger.error("hb.request.id given again", metadata: ["hb.request.id": "override", "list": ["x", "y"]])
            logger.critical("nested", metadata: ["map": ["k": "v"]])
        }
        #expect(ours.count == 5)
        #expect(ours.map(Self.afterTime) == theirs.map(Self.afterTime))
        #expect(
            ours.first.map(Self.afterTime)
                == " info haapi-gateway: flow=AeVy hb.request.id=5e63 method=GET milliseconds=0.8 path=/ status=200 [HAAPIGatewayTests] request\n"
        )
    }

    @Test("the time is the local time with its offset, as strftime's %Y-%m-%dT%H:%M:%S%z writes it")
    func textTimeIsLocalWithOffset() {
        let second = 1_795_000_000
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssZ"
        let lines = Lines()
        let logger = Logger(label: "l") { TextLogHandler(label: $0, timestamps: LogTimestamps(now: { second }), write: lines.write) }
        logger.info("m")
        #expect(lines.all == ["\(formatter.string(from: Date(timeIntervalSince1970: Double(second)))) info l: [HAAPIGatewayTests] m\n"])
    }

    @Test("JSON lines: a number logged as one is a JSON number, a boolean a boolean, a list an array; text stays text")
    func jsonValuesKeepTheirTypes() throws {
        let lines = Lines()
        let logger = Logger(label: "l") { JSONLogHandler(label: $0, timestamps: LogTimestamps(now: { 1_795_000_000 }), write: lines.write) }
        logger.info(
            "request",
            metadata: [
                "status": .stringConvertible(200), "milliseconds": .stringConvertible(1.5), "draining": .stringConvertible(true),
                "limit": .stringConvertible(UInt64.max), "ratio": .stringConvertible(Double.nan), "code": "200",
                "problems": ["a", "b"], "map": ["k": .stringConvertible(3)],
            ]
        )
        let line = try #require(lines.all.first)
        #expect(
            line
                == #"{"code":"200","draining":true,"label":"l","level":"info","limit":"18446744073709551615","map":{"k":3},"message":"request","milliseconds":1.5,"problems":["a","b"],"ratio":"nan","status":200,"time":"2026-11-18T11:06:40Z"}"#
        )
    }

    @Test("the time is made again when the second changes, and the JSON lines' time is UTC")
    func timeFollowsTheClock() {
        let second = Atomic<Int>(1_795_000_000)
        let timestamps = LogTimestamps(now: { second.load(ordering: .relaxed) })
        #expect(timestamps.utc == "2026-11-18T11:06:40Z")
        #expect(timestamps.utc == "2026-11-18T11:06:40Z")
        second.store(1_795_000_001, ordering: .relaxed)
        #expect(timestamps.utc == "2026-11-18T11:06:41Z")
        let lines = Lines()
        let logger = Logger(label: "l") { JSONLogHandler(label: $0, timestamps: timestamps, write: lines.write) }
        logger.info("m")
        #expect(lines.all.first?.contains(#""time":"2026-11-18T11:06:41Z""#) == true)
    }
}
