import Foundation
import Testing

@testable import GatewayTestSupport

/// A spawned process's wait always ends: also when another waiter in the test process took its status first.
@Suite("Spawned processes")
struct SpawnedProcessTests {
    @Test("a child whose status another waiter took has ended, and says so, instead of being waited for forever")
    func reapedElsewhere() async throws {
        let process = try SpawnedProcess(executable: URL(fileURLWithPath: "/bin/true"), arguments: [], environment: [:])
        // Another waiter (as any code that reaps children does) takes the status first.
        var raw: Int32 = 0
        #expect(waitpid(process.processIdentifier, &raw, 0) == process.processIdentifier)
        // Polled here within a bound, as `waitForExit` polls without one: without the guard this test fails, not hangs.
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!process.isRunning, "a child reaped elsewhere still counted as running")
        #expect(process.status == 255)
        #expect(process.ending.contains("taken by another waiter"), "\(process.ending)")
    }
}
