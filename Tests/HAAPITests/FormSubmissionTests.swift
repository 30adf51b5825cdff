import Foundation
import Testing

@testable import HAAPI

/// How a form action becomes a request, without I/O.
@Suite struct FormSubmissionTests {

    static func originGuard() throws -> OriginGuard {
        OriginGuard(baseURL: try #require(URL(string: "https://localhost:8443")))
    }

    @Test func jsonFormPostsNestedJSONWithContextValue() throws {
        let step = try Fixture.representation("ios-ui-kit-previewer/webauthn-authentication.json")
        let form = try #require(step.actions.first?.clientOperation?.continueActions.first?.form)
        let credential: JSONValue = .object(["id": .string("abc"), "response": .object(["clientDataJSON": .string("eyJ0")])])
        let submission = try FormSubmission(form: form, values: ["credential": credential], originGuard: try Self.originGuard())
        #expect(submission.method == "POST")
        #expect(submission.contentType == "application/json")
        let body = try JSONParser.parse(try #require(submission.body))
        #expect(body == .object(["credential": credential]))
        #expect(submission.url.absoluteString == "https://localhost:8443/dev/authn/authenticate/webauthn")
    }

    @Test func getFormAppendsFieldsToTheExistingQuery() throws {
        let json = try JSONParser.parse(
            Data(
                #"{"href":"/authn/poll?x=1","method":"GET","fields":[{"name":"moveOn","type":"hidden","value":"true"},{"name":"code","type":"text"}]}"#
                    .utf8
            )
        )
        let form = try FormModel(json: json)
        let submission = try FormSubmission(form: form, values: ["code": "a b&c"], originGuard: try Self.originGuard())
        #expect(submission.body == nil)
        #expect(submission.url.absoluteString == "https://localhost:8443/authn/poll?x=1&moveOn=true&code=a+b%26c")
    }

    /// A read-only checkbox keeps the step's state, checked or not, whatever the caller sends.
    @Test func readOnlyCheckboxesKeepTheStepsStateWhateverTheCallerSends() throws {
        let json = try JSONParser.parse(
            Data(
                #"{"href":"/consent","method":"POST","fields":[{"name":"fixedOn","type":"checkbox","readonly":true,"checked":true},{"name":"fixedOff","type":"checkbox","readonly":true,"checked":false,"value":"yes"},{"name":"free","type":"checkbox","value":"yes"}]}"#
                    .utf8
            )
        )
        let form = try FormModel(json: json)
        let submission = try FormSubmission(form: form, values: ["fixedOff": "yes", "free": "yes"], originGuard: try Self.originGuard())
        let sent = RecordedRequest.decodeForm(String(decoding: try #require(submission.body), as: UTF8.self))
        #expect(sent == ["fixedOn": "on", "free": "yes"])
        #expect(submission.ignoredNames == ["fixedOff"])
    }

    @Test func defaultsReadonlyCheckboxesAndUncheckedBoxes() throws {
        let consent = try #require(try Fixture.representation("from-typescript/user-consent-step.json").actions.first?.form)
        let submission = try FormSubmission(form: consent, values: ["consent.scope.read": "off"], originGuard: try Self.originGuard())
        let sent = RecordedRequest.decodeForm(String(decoding: try #require(submission.body), as: UTF8.self))
        #expect(sent["consent.claim.sub"] == "on")
        #expect(sent["consent.scope.read"] == "on")
        #expect(sent["submit_consent"] == "submit_consent")
        #expect(submission.ignoredNames == ["consent.scope.read"])

        let mixed = try #require(try Fixture.representation("from-typescript/synthetic-form-select-text-checkbox.json").actions.first?.form)
        let plain = try FormSubmission(form: mixed, values: [:], originGuard: try Self.originGuard())
        let values = RecordedRequest.decodeForm(String(decoding: try #require(plain.body), as: UTF8.self))
        #expect(values == ["character": "lisa", "something": "foo", "always-checked": "yes"])
    }

    @Test func absoluteSameOriginHrefIsAcceptedWithExplicitDefaultPort() throws {
        let guardian = OriginGuard(baseURL: try #require(URL(string: "https://idp.example.com")))
        #expect(try guardian.resolve("https://IDP.example.com:443/a").host == "IDP.example.com")
        #expect(throws: HAAPIError.self) { try guardian.resolve("http://idp.example.com/a") }
        #expect(throws: HAAPIError.self) { try guardian.resolve("https://idp.example.com:8443/a") }
        #expect(throws: HAAPIError.self) { try guardian.resolve("bankid:///?autostarttoken=x") }
        #expect(throws: HAAPIError.self) { try guardian.resolve("https://idp.example.com.evil.net/a") }
        #expect(throws: HAAPIError.self) { try guardian.resolve("https://idp.example.com@evil.net/a") }
    }
}
