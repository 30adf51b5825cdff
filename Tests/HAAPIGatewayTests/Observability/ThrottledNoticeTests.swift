import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// Log lines of floods: the first in full, then at most one summary per interval counting what came since.
@Suite("Throttled notices: the first in full, then one summary per 10 s")
struct ThrottledNoticeTests {
    private static func notice(_ log: LogCapture, _ clock: TestClock, _ scheduler: ManualScheduler) -> ThrottledNotice {
        ThrottledNotice(logger: log.logger, now: { clock.instant }, schedule: scheduler.schedule) { count, seconds in "\(count) more in \(seconds) s"
        }
    }

    private static func lines(_ log: LogCapture) -> [String] { log.text.split(separator: "\n").map(String.init) }

    @Test("a flood of 1 000 in one interval: the first line in full at notice, then one summary line counting the other 999")
    func floodIsSummarised() {
        let log = LogCapture(), clock = TestClock(), scheduler = ManualScheduler()
        let notice = Self.notice(log, clock, scheduler)
        for index in 0..<1_000 {
            notice.record("refused \(index)", metadata: ["peer": "127.0.0.\(index % 200)"])
            clock.advance(.milliseconds(5))
        }
        #expect(Self.lines(log).count == 1)
        #expect(Self.lines(log).first?.hasPrefix("notice refused 0 ") == true)
        #expect(scheduler.delays == [.milliseconds(9_995)], "one flush, at the end of the interval after the first line")
        clock.advance(.seconds(5))
        scheduler.runAll()
        #expect(Self.lines(log).count == 2)
        #expect(Self.lines(log).last?.hasPrefix("notice 999 more in 10 s") == true)
        #expect(Self.lines(log).last?.contains("127.0.0.199") == true, "the summary carries the latest occurrence's metadata")
    }

    @Test("a flood that goes on: at most one line per interval; after a quiet interval the next one is in full again")
    func atMostOneLinePerInterval() {
        let log = LogCapture(), clock = TestClock(), scheduler = ManualScheduler()
        let notice = Self.notice(log, clock, scheduler)
        // 60 s of one occurrence every 100 ms, the scheduled flushes run when they are due.
        var nextFlush: ContinuousClock.Instant?
        var flushesRun = 0
        for index in 0..<600 {
            notice.record("refused \(index)")
            if nextFlush == nil, let delay = scheduler.delays.last, scheduler.pending > 0 { nextFlush = clock.instant + delay }
            clock.advance(.milliseconds(100))
            if let due = nextFlush, clock.instant >= due {
                scheduler.runAll()
                flushesRun += 1
                nextFlush = nil
            }
        }
        let lines = Self.lines(log)
        #expect(lines.count == 1 + flushesRun)
        #expect(lines.count <= 7, "60 s of flood: the first line and one summary per 10 s")
        #expect(lines.dropFirst().allSatisfy { $0.contains(" more in ") })
        clock.advance(.seconds(20))
        scheduler.runAll()
        let settled = Self.lines(log).count
        clock.advance(.seconds(20))
        notice.record("refused again")
        #expect(Self.lines(log).count == settled + 1)
        #expect(Self.lines(log).last?.hasPrefix("notice refused again") == true)
    }

    @Test("a flush with nothing new writes nothing")
    func emptyFlushIsSilent() {
        let log = LogCapture(), clock = TestClock(), scheduler = ManualScheduler()
        let notice = Self.notice(log, clock, scheduler)
        notice.record("refused once")
        notice.flush()
        #expect(Self.lines(log).count == 1)
        #expect(scheduler.pending == 0)
    }

    @Test("the connection notices name the peer and the bound, and count the refusals and time-outs in the metrics")
    func connectionNotices() {
        let log = LogCapture(), clock = TestClock(), scheduler = ManualScheduler()
        let metrics = GatewayMetrics()
        let notices = ConnectionNotices(logger: log.logger, metrics: metrics, now: { clock.instant }, schedule: scheduler.schedule)
        for _ in 0..<5 { notices.refused(.perAddress, open: 64, peer: "127.0.0.2") }
        notices.refused(.total, open: 4096, peer: "192.0.2.7")
        notices.timedOut(after: 10, peer: "127.0.0.3")
        scheduler.runAll()
        let text = log.text
        #expect(text.contains("notice connection refused: 64 connections from 127.0.0.2 (server.maximumConnectionsPerAddress)"))
        #expect(text.contains("notice connection refused 4 more times in 0 s (server.maximumConnectionsPerAddress)"))
        #expect(text.contains("notice connection refused: 4096 connections open, one more from 192.0.2.7 (server.maximumConnections)"))
        #expect(text.contains("notice connection closed: request not complete within 10 s (server.requestTimeoutSeconds), from 127.0.0.3"))
        let exposition = metrics.exposition()
        #expect(exposition.contains(#"haapi_gateway_connections_refused_total{reason="per_address"} 5"#))
        #expect(exposition.contains(#"haapi_gateway_connections_refused_total{reason="total"} 1"#))
        #expect(exposition.contains("haapi_gateway_connections_timed_out_total 1"))
    }
}
