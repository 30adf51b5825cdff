import Foundation
import Logging
import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// The stop's deadline runs from the stop signal, on a thread of its own: `serve`'s falls `server.drainSeconds` +
/// `server.stopSeconds` after SIGTERM, without waiting for the drain's task to start it (a wedged pool never would).
@Suite("The stop's deadline")
struct StopDeadlineTests {
    /// When the deadline's exit was called, once it was.
    final class Exits: Sendable {
        private let calls = Mutex<[(status: Int32, at: ContinuousClock.Instant)]>([])
        func record(_ status: Int32) { calls.withLock { $0.append((status, .now)) } }
        var all: [(status: Int32, at: ContinuousClock.Instant)] { calls.withLock { $0 } }
    }

    @Test("a signal starts the deadline with the drain still ahead: it fires drain + stop after the signal, and the drain's end changes nothing")
    func aSignalStartsTheDeadlineWithTheDrainAhead() async throws {
        let exits = Exits()
        let deadline = StopDeadline(seconds: 1, logger: Logger(label: "stop-deadline-test")) { exits.record($0) }
        let watch = StopSignalWatch(deadline, allowing: .seconds(1), signals: [SIGUSR2])
        defer { withExtendedLifetime(watch) {} }
        #expect(deadline.deadline == nil)
        let signalled = ContinuousClock.now
        kill(getpid(), SIGUSR2)
        // Waiting on the signal's queue and the deadline's thread, neither of which is this test's: polled, not slept on.
        while deadline.deadline == nil, ContinuousClock.now - signalled < .seconds(30) { try await Task.sleep(for: .milliseconds(20)) }
        let due = try #require(deadline.deadline, "the signal started it")
        #expect(due - signalled >= .seconds(2), "drain 1 s + stop 1 s: \(due - signalled)")
        #expect(due - signalled < .seconds(2) + .seconds(30), "from the signal, not later")
        deadline.start()
        #expect(deadline.deadline == due, "the drain's end finds it started")
        while exits.all.isEmpty, ContinuousClock.now - signalled < .seconds(60) { try await Task.sleep(for: .milliseconds(50)) }
        let exit = try #require(exits.all.first)
        #expect(exit.status == StopDeadline.cutShortStatus)
        #expect(exit.at >= due, "not before its time")
        #expect(exits.all.count == 1)
    }
}
