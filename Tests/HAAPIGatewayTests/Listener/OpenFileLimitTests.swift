import Testing

@testable import HAAPIGateway

/// `server.maximumConnections` against the open-file limit: raise the soft limit toward the hard one, else lower the cap.
@Suite("Open-file limit and the connection cap")
struct OpenFileLimitTests {
    @Test("a soft limit below the cap and 256 is raised as far as needed when the hard limit allows")
    func raisesTheSoftLimit() {
        let plan = OpenFileLimit(soft: 1024, hard: 524_288).plan(maximumConnections: 4096)
        #expect(plan == .init(raiseSoftLimitTo: 4352, maximumConnections: 4096))
    }

    @Test("a hard limit too low: raised to it, and the cap lowered to the limit less 256")
    func lowersTheCap() {
        #expect(OpenFileLimit(soft: 1024, hard: 2048).plan(maximumConnections: 4096) == .init(raiseSoftLimitTo: 2048, maximumConnections: 1792))
        #expect(OpenFileLimit(soft: 1024, hard: 1024).plan(maximumConnections: 4096) == .init(raiseSoftLimitTo: nil, maximumConnections: 768))
    }

    @Test("never below 64; a limit with room changes nothing")
    func boundsOfThePlan() {
        #expect(OpenFileLimit(soft: 100, hard: 100).plan(maximumConnections: 4096).maximumConnections == 64)
        #expect(OpenFileLimit(soft: 65_536, hard: 65_536).plan(maximumConnections: 4096) == .init(raiseSoftLimitTo: nil, maximumConnections: 4096))
        #expect(OpenFileLimit(soft: 1024, hard: 1024).plan(maximumConnections: 10) == .init(raiseSoftLimitTo: nil, maximumConnections: 10))
        #expect(OpenFileLimit.cap(4096, softLimit: 1024) == 768)
    }

    @Test("this process's limit can be read")
    func currentLimit() throws {
        let limit = try #require(OpenFileLimit.current())
        #expect(limit.soft <= limit.hard)
    }
}
