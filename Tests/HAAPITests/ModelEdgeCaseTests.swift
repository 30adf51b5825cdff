import Foundation
import Testing

@testable import HAAPI

/// Step kinds and problem types the samples do not cover, unknown members, and bad bodies.
@Suite struct ModelEdgeCaseTests {
    static func step(_ json: String) throws -> Representation {
        try Representation(json: try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
    }

    static func clientOperationStep(_ name: String) -> String {
        #"{"type":"authentication-step","actions":[{"template":"client-operation","kind":"login","model":{"name":"\#(name)","arguments":{"href":"https://idp/x"},"continueActions":[{"template":"form","kind":"continue","model":{"href":"/c","method":"POST","fields":[{"name":"_resume_nonce","type":"context"}]}}]}}]}"#
    }

    @Test(arguments: [
        ("external-browser-flow", StepKind.externalBrowserClientOperation),
        ("encap", .encapClientOperation),
        ("something-new", .genericClientOperation),
        ("bankid", .bankIDClientOperation),
    ])
    func clientOperationStepsAreClassifiedByName(name: String, expected: StepKind) throws {
        #expect(try Self.step(Self.clientOperationStep(name)).stepKind == expected)
    }

    @Test func unknownStepTypeWithoutActionsIsGeneric() throws {
        let step = try Self.step(#"{"type":"consentor-step-v9","messages":[{"text":"hi","classList":[]}]}"#)
        #expect(step.stepKind == .generic)
        #expect(step.type.rawValue == "consentor-step-v9")
        #expect(step.messages.first?.text == "hi")
    }

    @Test func unknownMembersAndFieldTypesNeverFailDecoding() throws {
        let step = try Self.step(
            #"{"type":"authentication-step","future":{"x":[1,2]},"actions":[{"template":"form","kind":"login","extra":true,"model":{"href":"/a","method":"post","fields":[{"name":"pin","type":"pin-pad","digits":6,"required":true,"minLength":4,"maxLength":8}]}}]}"#
        )
        let field = try #require(step.actions.first?.form?.fields.first)
        #expect(field.type == .other("pin-pad"))
        #expect(field.raw["digits"] == .number(6))
        #expect(field.required == true && field.minLength == 4 && field.maxLength == 8)
        #expect(step.actions.first?.form?.method == "POST")
        #expect(step.raw["future"]?["x"] == .array([.number(1), .number(2)]))
    }

    @Test func errorAuthorizationResponseProblemCarriesOAuthError() throws {
        let response = try HAAPIResponse.decode(
            status: 400,
            contentType: "application/problem+json; charset=utf-8",
            body: Data(
                #"{"type":"https://curity.se/problems/error-authorization-response","title":"Denied","error":"access_denied","error_description":"User cancelled","iss":"https://idsvr.example/oauth/v2/oauth-anonymous"}"#
                    .utf8
            )
        )
        let problem = try #require(response.problem)
        #expect(problem.kind == .errorAuthorizationResponse)
        #expect(!problem.kind.isInputProblem)
        #expect(problem.error == "access_denied")
        #expect(problem.errorDescription == "User cancelled")
        #expect(problem.httpStatus == 400)
    }

    /// The problem types of Curity's SDKs ([UIKIT] `HAAPI_PROBLEM_STEPS`): four input problems keep the step.
    @Test(arguments: [
        ("invalid-input", ProblemKind.invalidInput, true), ("incorrect-credentials", .incorrectCredentials, true),
        ("authentication-failed", .authenticationFailed, true), ("too-many-attempts", .tooManyAttempts, true),
        ("error-authorization-response", .errorAuthorizationResponse, false),
        ("mismatch-between-session-and-access-token", .sessionAndTokenMismatch, false), ("generic-user-error", .genericUserError, false),
        ("unexpected", .unexpected, false), ("a-future-type", .other("https://curity.se/problems/a-future-type"), false),
    ])
    func problemTypesOfCuritysSDKs(name: String, kind: ProblemKind, keepsStep: Bool) {
        let parsed = ProblemKind(type: "https://curity.se/problems/" + name)
        #expect(parsed == kind)
        #expect(parsed.isInputProblem == keepsStep)
    }

    @Test func otherProblemTypesAreGeneric() throws {
        let response = try HAAPIResponse.decode(
            status: 429,
            contentType: "application/problem+json",
            body: Data(
                #"{"type":"https://example.com/problems/slow-down","title":"Slow down","detail":"Too many tries","status":429,"messages":[{"text":"Wait","classList":["warning"]}]}"#
                    .utf8
            )
        )
        let problem = try #require(response.problem)
        #expect(problem.kind == .other("https://example.com/problems/slow-down"))
        #expect(problem.title == "Slow down" && problem.detail == "Too many tries" && problem.status == 429)
        #expect(problem.messages.first?.classList == ["warning"])
    }

    @Test func malformedJSONIsAMalformedResponseError() {
        let error = #expect(throws: HAAPIError.self) {
            try HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: Data("{\"type\": ".utf8))
        }
        #expect(error?.code == .malformedResponse && error?.contentType == "application/vnd.auth+json")
    }

    @Test func htmlPageIsAMalformedResponseWithItsContentType() {
        let error = #expect(throws: HAAPIError.self) {
            try HAAPIResponse.decode(status: 200, contentType: "text/html; charset=utf-8", body: Data("<html>proxy</html>".utf8))
        }
        #expect(error?.code == .malformedResponse && error?.contentType == "text/html; charset=utf-8")
    }

    @Test func errorStatusWithHTMLIsAnUpstreamStatusError() {
        let error = #expect(throws: HAAPIError.self) {
            try HAAPIResponse.decode(status: 502, contentType: "text/html", body: Data("<html>Bad gateway</html>".utf8))
        }
        #expect(error?.code == .upstreamStatus && error?.status == 502)
    }

    @Test func stepWithoutTypeIsMalformed() {
        let error = #expect(throws: HAAPIError.self) {
            try HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: Data(#"{"actions":[]}"#.utf8))
        }
        #expect(error?.code == .malformedResponse)
    }

    @Test func errorMessagesNeverContainTheBody() {
        let secret = "SECRET-CODE-12345"
        do {
            _ = try HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: Data("{\"code\":\"\(secret)\"".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(!error.description.contains(secret))
            #expect(!error.message.contains(secret))
        }
    }

    @Test func continueSameShowsTheContinueActionsWithTheNewMessagesFirst() throws {
        let previous = try Fixture.representation("duo-nested-selectors-continue-actions.json")
        let sms = try #require(previous.actions.first?.selectorOptions?.first?.selectorOptions?.first { $0.form?.continueActions.isEmpty == false })
        let continueActions = try #require(sms.form?.continueActions)
        let next = previous.continuing(with: continueActions, newMessages: [Message(text: "SMS sent", classList: ["info"])])
        #expect(next.messages.first?.text == "SMS sent")
        #expect(next.messages.dropFirst().map(\.text) == previous.messages.map(\.text))
        #expect(next.actions == continueActions)
        #expect(next.type == previous.type)
        #expect(next.raw["messages"]?.arrayValue?.first?["text"]?.stringValue == "SMS sent")
        #expect(next.raw["actions"]?.arrayValue?.count == continueActions.count)
    }
}
