import Testing

@testable import GatewayTestSupport

/// The test process's own environment, set before `main` (``TestProcess``).
@Suite("The test process")
struct TestProcessTests {
    @Test("Swift Testing's capture of a backtrace for every thrown error is off, as the process's constructor set it")
    func errorBacktracesAreOff() {
        #expect(TestProcess.errorBacktracesOff)
    }
}
