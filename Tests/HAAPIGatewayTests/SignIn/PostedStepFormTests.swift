import HAAPI
import Testing

@testable import HAAPIGateway

/// ``PostedStepForm``: what a post of a step's form sends upstream, and whether the gateway refuses it first.
@Suite("Posted step forms")
struct PostedStepFormTests {
    static func model(_ fields: [JSONValue], json: Bool = false) throws -> FormModel {
        var model: [String: JSONValue] = ["href": "/submit", "method": "POST", "fields": .array(fields)]
        if json { model["type"] = "application/json" }
        let step = try Representation(json: [
            "type": "authentication-step", "actions": [["template": "form", "kind": "login", "model": .object(model)]],
        ])
        return try #require(step.actions.first?.form)
    }

    @Test("a complete form goes upstream: hidden fields from the step, a ticked checkbox its value, the typed values kept but the password")
    func sent() throws {
        let model = try Self.model([
            ["name": "userName", "type": "username"], ["name": "password", "type": "password"],
            ["name": "remember", "type": "checkbox", "value": "yes", "required": false], ["name": "_state", "type": "hidden", "value": "s"],
        ])
        let posted = PostedStepForm(model: model, posted: ["userName": "alice", "password": "pw", "remember": "x", "_state": "forged", "extra": "1"])
        #expect(posted.refusal == nil)
        #expect(posted.parameters == ["userName": .string("alice"), "password": .string("pw"), "remember": .string("yes")])
        #expect(posted.typed == ["userName": "alice", "remember": "on"])
    }

    @Test("required fields left empty are refused before the upstream, with what the person typed")
    func missing() throws {
        let model = try Self.model([["name": "userName", "type": "username", "label": "Username"], ["name": "terms", "type": "checkbox"]])
        let posted = PostedStepForm(model: model, posted: ["userName": ""])
        let expected = SignInRefusal.missingFields(
            [
                "userName": .gateway(.requiredField, arguments: ["field": "Username"]),
                "terms": .gateway(.requiredField, arguments: ["field": "terms"]),
            ],
            typed: ["userName": "", "terms": ""]
        )
        #expect(posted.refusal == expected)
        #expect(posted.refusal?.notices == [.gateway(.fillRequired)])
    }

    @Test("a passkey answer that is not a JSON object is refused before the upstream")
    func invalidPasskey() throws {
        let model = try Self.model([["name": "credential", "type": "context"]], json: true)
        #expect(PostedStepForm(model: model, posted: ["credential": "not json"]).refusal == .invalidPasskey)
        #expect(PostedStepForm(model: model, posted: ["credential": #"{"id":"a"}"#]).refusal == nil)
    }
}
