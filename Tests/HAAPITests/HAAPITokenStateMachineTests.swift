import Testing

@testable import HAAPI

@Suite struct HAAPITokenStateMachineTests {
    let token = HAAPIAccessToken(value: "t1", tokenType: "DPoP", expiresIn: 600)
    let clock = ContinuousClock()

    @Test func emptyMachineAsksToFetch() {
        var machine = HAAPITokenStateMachine(refreshMargin: .seconds(30))
        #expect(machine.tokenRequested(now: clock.now) == .fetch)
    }

    @Test func fetchedTokenIsReusedUntilTheMarginBeforeExpiry() {
        var machine = HAAPITokenStateMachine(refreshMargin: .seconds(30))
        let start = clock.now
        machine.tokenFetched(token, now: start)
        #expect(machine.tokenRequested(now: start + .seconds(569)) == .useCached(token))
        #expect(machine.tokenRequested(now: start + .seconds(571)) == .fetch)
        #expect(!machine.hasToken)
    }

    @Test func rejectedTokenIsRefetchedOnceThenFails() {
        var machine = HAAPITokenStateMachine(refreshMargin: .seconds(30))
        machine.tokenFetched(token, now: clock.now)
        #expect(machine.tokenRejected(token, alreadyRefetched: false) == .fetch)
        #expect(!machine.hasToken)
        let second = HAAPIAccessToken(value: "t2", tokenType: "DPoP", expiresIn: 600)
        machine.tokenFetched(second, now: clock.now)
        guard case .fail(let error) = machine.tokenRejected(second, alreadyRefetched: true) else {
            Issue.record("expected fail")
            return
        }
        #expect(error.code == .dpopRejected)
    }

    @Test func rejectionOfAnOlderTokenKeepsTheNewerOne() {
        var machine = HAAPITokenStateMachine(refreshMargin: .seconds(30))
        let newer = HAAPIAccessToken(value: "t2", tokenType: "DPoP", expiresIn: 600)
        machine.tokenFetched(newer, now: clock.now)
        _ = machine.tokenRejected(token, alreadyRefetched: false)
        #expect(machine.hasToken)
    }
}
