import Foundation
import Testing

@testable import HAAPI

/// A saved flow keeps its step and last submitted action as JSON (``StepJSON``) and decodes them again on restore: for
/// every shared sample, with and without the raw JSON kept, that gives back an equal step and equal actions.
@Suite struct StepJSONTests {
    /// Every sample that is a step (problems are never a flow's current step).
    static func sampleSteps(keepingRawJSON: Bool) throws -> [(String, Representation)] {
        try Fixture.allSamplePaths().compactMap { path in
            let isProblem = path.contains("problem")
            let response = try HAAPIResponse.decode(
                status: isProblem ? 400 : 200,
                contentType: isProblem ? "application/problem+json" : "application/vnd.auth+json",
                body: try Fixture.data(path),
                keepingRawJSON: keepingRawJSON
            )
            return response.representation.map { (path, $0) }
        }
    }

    /// The actions of a step and every action nested in them (selector options, continue and error actions).
    static func allActions(_ actions: [Action]) -> [Action] {
        actions.flatMap { action in
            [action] + allActions((action.selectorOptions ?? []) + action.continueActions + action.errorActions)
        }
    }

    /// Decodes a step from text as a restore does.
    static func step(from text: String, keepingRawJSON: Bool) throws -> Representation {
        try #require(
            try HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: Data(text.utf8), keepingRawJSON: keepingRawJSON)
                .representation
        )
    }

    @Test("every sample step and every action in it decodes again to an equal value, with and without raw JSON", arguments: [false, true])
    func samplesRoundTrip(keepingRawJSON: Bool) throws {
        let steps = try Self.sampleSteps(keepingRawJSON: keepingRawJSON)
        #expect(steps.count > 30)
        var actionCount = 0
        for (path, step) in steps {
            let text = StepJSON.json(of: step).jsonText
            #expect(try Self.step(from: text, keepingRawJSON: keepingRawJSON) == step, "\(path)")
            for action in Self.allActions(step.actions) {
                actionCount += 1
                let again = try Action(json: try JSONValue.parse(Data(StepJSON.json(of: action).jsonText.utf8)), keepingRawJSON: keepingRawJSON)
                #expect(again == action, "an action of \(path)")
            }
        }
        #expect(actionCount > 100)
    }

    @Test("without raw JSON the text is written from the typed members, and the same for equal steps", arguments: [false, true])
    func textIsDeterministic(keepingRawJSON: Bool) throws {
        for (path, step) in try Self.sampleSteps(keepingRawJSON: keepingRawJSON) {
            let again = try Self.step(from: StepJSON.json(of: step).jsonText, keepingRawJSON: keepingRawJSON)
            #expect(StepJSON.json(of: again).jsonText == StepJSON.json(of: step).jsonText, "\(path)")
            #expect((step.raw == .null) == !keepingRawJSON)
        }
    }

    @Test("the step a continue-same-step leads to (continue actions, new messages first) decodes again to an equal step", arguments: [false, true])
    func continuedStepRoundTrips(keepingRawJSON: Bool) throws {
        let steps = try Self.sampleSteps(keepingRawJSON: keepingRawJSON)
        let (_, previous) = try #require(steps.first { $0.0 == "duo-nested-selectors-continue-actions.json" })
        let sms = try #require(Self.allActions(previous.actions).first { !$0.continueActions.isEmpty })
        let continued = previous.continuing(
            with: sms.continueActions,
            newMessages: [Message(text: "SMS sent", classList: ["info"], properties: .object(["n": 1]))]
        )
        #expect(continued.actions == sms.continueActions)
        #expect(try Self.step(from: StepJSON.json(of: continued).jsonText, keepingRawJSON: keepingRawJSON) == continued)
    }

    @Test("JSON text reads back to an equal value: numbers, escapes, nesting; members sorted")
    func jsonTextRoundTrips() throws {
        let values: [JSONValue] = [
            .null, true, false, 0, -1, 42, 1.5, -0.25, 1e20, 9.1e15, 1e-7, 123_456_789.125, .number(.infinity), .number(-.infinity),
            "", "plain", "quote \" backslash \\ slash / tab \t newline \n nul \u{0} bell \u{7}", "unicode é ✓ 𝄞",
            .array([1, "two", .null, .array([]), .object([:])]),
            .object(["b": 1, "a": .object(["z": [true], "y": "x"]), "": "empty name"]),
        ]
        for value in values {
            #expect(try JSONValue.parse(Data(value.jsonText.utf8)) == value, "\(value)")
        }
        #expect(JSONValue.object(["b": 1, "a": 2]).jsonText == #"{"a":2,"b":1}"#)
        #expect(JSONValue.number(.nan).jsonText == "null")
    }
}
