import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway

/// ``PollDecision``: what a poll of a sign-in does, decided from its record alone (the session applies it).
@Suite("Poll decisions")
struct PollDecisionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A pending polling step with a poll form, checked every `intervalMilliseconds` and waiting at most `maxWaitTime`.
    static func pollingStep(intervalMilliseconds: String? = "3000", maxWaitTime: String? = nil, poll: Bool = true) throws -> Representation {
        var properties: [String: JSONValue] = ["status": "pending"]
        if let intervalMilliseconds { properties["interval"] = .string(intervalMilliseconds) }
        if let maxWaitTime { properties["maxWaitTime"] = .string(maxWaitTime) }
        let action: JSONValue = ["template": "form", "kind": poll ? "poll" : "cancel", "model": ["href": "/poll", "method": "GET"]]
        return try Representation(json: ["type": "polling-step", "properties": .object(properties), "actions": [action]])
    }

    /// A record showing `step` as version 2.
    static func record(showing step: Representation) -> SignInRecord {
        var record = SignInRecord()
        record.step = step
        record.version = 2
        return record
    }

    static func decide(_ record: SignInRecord, version: Int = 2, at now: Date = now, polling: PollingSettings = .init()) -> String {
        switch PollDecision(record: record, version: version, polling: polling, now: now) {
        case .nothing: "nothing"
        case .timedOut: "timedOut"
        case .tooSoon: "tooSoon"
        case .poll(let action): "poll \(action.kind.rawValue)"
        }
    }

    @Test("a pending polling step of the page's version is polled; another version, an ended sign-in or a step without a poll form is not")
    func whatIsPolled() throws {
        let record = Self.record(showing: try Self.pollingStep())
        #expect(Self.decide(record) == "poll poll")
        #expect(Self.decide(record, version: 1) == "nothing", "a page of another version")
        var ended = record
        ended.phase = .cancelled
        #expect(Self.decide(ended) == "nothing")
        #expect(Self.decide(Self.record(showing: try Self.pollingStep(poll: false))) == "nothing")
        #expect(Self.decide(Self.record(showing: try SignInRecordStepsTests.formStep())) == "nothing", "not a polling step")
    }

    @Test("within three quarters of the step's interval after the last poll it is too soon; at it, or with the clock set back, it polls")
    func pacing() throws {
        var record = Self.record(showing: try Self.pollingStep(intervalMilliseconds: "4000"))
        record.lastPolledAt = Self.now.addingTimeInterval(-2.9)
        #expect(Self.decide(record) == "tooSoon")
        record.lastPolledAt = Self.now.addingTimeInterval(-3)
        #expect(Self.decide(record) == "poll poll")
        record.lastPolledAt = Self.now.addingTimeInterval(60)
        #expect(Self.decide(record) == "poll poll", "a last poll in the future (another replica's clock) holds nothing back")
        record.lastPolledAt = Self.now.addingTimeInterval(-1)
        let defaults = Self.record(showing: try Self.pollingStep(intervalMilliseconds: nil))
        var paced = defaults
        paced.lastPolledAt = record.lastPolledAt
        #expect(Self.decide(paced, polling: .init(defaultIntervalSeconds: 2)) == "tooSoon", "1 s of the default 2 s")
        #expect(Self.decide(paced, polling: .init(defaultIntervalSeconds: 1)) == "poll poll")
    }

    @Test("past the configured longest wait, or the step's shorter maxWaitTime, the sign-in times out, even when polled too soon")
    func timeout() throws {
        var record = Self.record(showing: try Self.pollingStep())
        record.pollingSince = Self.now.addingTimeInterval(-301)
        record.lastPolledAt = Self.now
        #expect(Self.decide(record) == "timedOut")
        #expect(Self.decide(record, polling: .init(maximumWaitSeconds: 600)) == "tooSoon")
        var short = Self.record(showing: try Self.pollingStep(maxWaitTime: "30"))
        short.pollingSince = Self.now.addingTimeInterval(-31)
        #expect(Self.decide(short) == "timedOut")
        short.pollingSince = Self.now.addingTimeInterval(-30)
        #expect(Self.decide(short) == "poll poll")
        var withoutPollForm = Self.record(showing: try Self.pollingStep(poll: false))
        withoutPollForm.pollingSince = Self.now.addingTimeInterval(-301)
        #expect(Self.decide(withoutPollForm) == "timedOut", "the wait ends a step that has no poll form too")
    }
}
