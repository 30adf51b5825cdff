import Foundation
import Logging
import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// The stop's deadline runs from the stop signal, on a thread of its own: `serve`'s falls `server.drainSeconds` +
/// `server.stopSeconds` after SIGTERM, without waiting for the drain's task to start it (a wedged pool never would).
/// The signal itself is sent to whole processes in "Stopping always ends".
@Suite("The stop's deadline")
struct StopDeadlineTests {
    /// When the deadline's exit was called, once it was.
    final class Exits: Sendable {
        private let calls = Mutex<[(status: Int32, at: ContinuousClock.Instant)]>([])
        func record(_ status: Int32) { calls.withLock { $0.append((status, .now)) } }
        var all: [(status: Int32, at: ContinuousClock.Instant)] { calls.withLock { $0 } }
    }

    /// How a stop signal starts it (``StopSignalWatch``): with the drain still ahead. Whether a signal reaches the watch
    /// is a whole process's matter (a test process's threads need not block the signal, and one that does not takes it
    /// and drops it), so "Stopping always ends" sends SIGTERM to `serve` itself; here the deadline's own arithmetic.
    @Test("started with the drain still ahead: it fires drain + stop later, once, and the drain's end changes nothing")
    func startedWithTheDrainAhead() async throws {
        let exits = Exits()
        let deadline = StopDeadline(seconds: 1, logger: Logger(label: "stop-deadline-test")) { exits.record($0) }
        #expect(deadline.deadline == nil)
        let signalled = ContinuousClock.now
        deadline.start(allowing: .seconds(1))
        let due = try #require(deadline.deadline, "started")
        #expect(due - signalled >= .seconds(2), "drain 1 s + stop 1 s: \(due - signalled)")
        #expect(due - signalled < .seconds(2) + .seconds(30), "from the start, not later")
        deadline.start()
        #expect(deadline.deadline == due, "the drain's end finds it started")
        // The deadline's thread is not this test's: polled, not slept on.
        while exits.all.isEmpty, ContinuousClock.now - signalled < .seconds(60) { try await Task.sleep(for: .milliseconds(50)) }
        let exit = try #require(exits.all.first)
        #expect(exit.status == StopDeadline.cutShortStatus)
        #expect(exit.at >= due, "not before its time")
        try await Task.sleep(for: .milliseconds(200))
        #expect(exits.all.count == 1)
    }
}
