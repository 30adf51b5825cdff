import Foundation
import Testing

@testable import GatewayTestSupport

/// A spawned process's wait always ends: also when another waiter in the test process took its status first.
@Suite("Spawned processes", .startsPrograms())
struct SpawnedProcessTests {
    @Test("a child whose status another waiter took has ended, and says so, instead of being waited for forever")
    func reapedElsewhere() async throws {
        let process = try SpawnedProcess(executable: URL(fileURLWithPath: "/bin/true"), arguments: [], environment: [:])
        // Another waiter (as any code that reaps children does) takes the status first, polling as the tests' waits do.
        let pid = process.processIdentifier
        var reaped: pid_t = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while reaped == 0, ContinuousClock.now < deadline {
            var raw: Int32 = 0
            reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(reaped == pid)
        // Polled here within a bound, as `waitForExit` polls without one: without the guard this test fails, not hangs.
        let again = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < again { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!process.isRunning, "a child reaped elsewhere still counted as running")
        #expect(process.status == 255)
        #expect(process.ending.contains("taken by another waiter"), "\(process.ending)")
    }
}
