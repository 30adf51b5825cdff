import Foundation
import Testing

/// The sms user: a send form whose continueActions hold the code form, answered with continue-same-step, as in
/// Curity's Duo samples (`duo-nested-selectors-continue-actions.json`, `continue-same-step.json`).
@Suite struct SMSCodeFlowTests {
    static let maskedPhone = "+46 70 *** ** 12"

    /// From the password to the send step of the sms user.
    static func sendStep(_ flow: HAAPIFlowDriver) async throws -> Step {
        let form = try await LoginFlowTests.passwordForm(flow)
        return Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": "sms", "password": "sms"]))
    }

    static func smsCode(_ harness: DemoServerHarness) async throws -> String? {
        let outbox = try await harness.http.send(.GET, harness.base + "/demo/outbox").json
        return (outbox["messages"] as? [[String: Any]])?.first { $0["kind"] as? String == "sms-code" && $0["to"] as? String == "+46 70 123 45 12" }?[
            "code"
        ]
            as? String
    }

    @Test func sendFormCarriesTheCodeFormAsItsContinueAction() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let step = try await Self.sendStep(flow)
        #expect(step.type == "authentication-step")
        #expect(step.messages.contains("Verify with a code by SMS"))
        let send = try #require(step.actions.first)
        #expect(send["template"] as? String == "form")
        #expect(send["title"] as? String == "We will text a code to \(Self.maskedPhone)")
        let model = try #require(send["model"] as? [String: Any])
        #expect(model["actionTitle"] as? String == "Send code")
        let continueAction = try #require((model["continueActions"] as? [[String: Any]])?.first)
        #expect(continueAction["template"] as? String == "form")
        #expect(continueAction["title"] as? String == "Enter the code")
        let continueModel = try #require(continueAction["model"] as? [String: Any])
        #expect(continueModel["actionTitle"] as? String == "Verify")
        let otp = try #require((continueModel["fields"] as? [[String: Any]])?.first { $0["name"] as? String == "otp" })
        #expect(otp["type"] as? String == "text")
        #expect(otp["kind"] as? String == "number")
        try await harness.finish()
    }

    @Test func sendingAnswersContinueSameStepThenTheRightCodeSignsIn() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let step = try await Self.sendStep(flow)
        let send = try #require(step.actions.first)
        let continueAction = try #require(((send["model"] as? [String: Any])?["continueActions"] as? [[String: Any]])?.first)

        // The continue action is accepted only after the send form was posted.
        let early = try await flow.submit(continueAction, ["otp": "123456"])
        #expect(early.json["code"] as? String == "unexpected_step")
        #expect(try await Self.smsCode(harness) == nil)

        let sent = try await flow.submit(send)
        #expect(sent.status == 200)
        #expect(Step(sent).type == "continue-same-step")
        #expect(Step(sent).actions.isEmpty, "the client shows the submitted form's continueActions")
        let message = try #require((sent.json["messages"] as? [[String: Any]])?.first)
        #expect(message["text"] as? String == "SMS sent to \(Self.maskedPhone)")
        #expect(message["classList"] as? [String] == ["info"])
        let code = try #require(try await Self.smsCode(harness))

        let wrong = try await flow.submit(continueAction, ["otp": code == "000000" ? "111111" : "000000"])
        #expect(wrong.status == 400)
        #expect(wrong.json["type"] as? String == "https://curity.se/problems/incorrect-credentials")
        let done = try await flow.submit(continueAction, ["otp": code])
        #expect(Step(done).type == "oauth-authorization-response")
        let tokens = try await flow.exchange(done)
        #expect(tokens.status == 200)
        try await harness.finish()
    }

    @Test func threeWrongCodesAreTooManyAttemptsVoidTheCodeAndSendANewOne() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let step = try await Self.sendStep(flow)
        let send = try #require(step.actions.first)
        let continueAction = try #require(((send["model"] as? [String: Any])?["continueActions"] as? [[String: Any]])?.first)
        _ = try await flow.submit(send)
        let code = try #require(try await Self.smsCode(harness))
        let wrongCode = code == "000000" ? "111111" : "000000"
        for _ in 1...2 {
            #expect(
                try await flow.submit(continueAction, ["otp": wrongCode]).json["type"] as? String
                    == "https://curity.se/problems/incorrect-credentials"
            )
        }
        let tooMany = try await flow.submit(continueAction, ["otp": wrongCode])
        #expect(tooMany.status == 400)
        #expect(tooMany.json["type"] as? String == "https://curity.se/problems/too-many-attempts")
        #expect(Step(tooMany).messages.contains { $0.contains("A new code was sent") })
        let newCode = try #require(try await Self.smsCode(harness))
        // (A fresh six-digit code equals the old one once in a million runs; then there is no old code to refuse.)
        if newCode != code {
            #expect(
                try await flow.submit(continueAction, ["otp": code]).json["type"] as? String == "https://curity.se/problems/incorrect-credentials",
                "the old code is void"
            )
        }
        // The code form the person sees stays usable: the new code signs in with it.
        #expect(Step(try await flow.submit(continueAction, ["otp": newCode])).type == "oauth-authorization-response")
        try await harness.finish()
    }

    @Test func lockedUserIsAuthenticationFailedAndTheFormStaysValid() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await LoginFlowTests.passwordForm(flow)
        let login = try #require(form.action(kind: "login"))
        let failed = try await flow.submit(login, ["userName": "locked", "password": "locked"])
        #expect(failed.status == 400)
        #expect(failed.json["type"] as? String == "https://curity.se/problems/authentication-failed")
        #expect(Step(failed).messages.contains { $0.contains("locked") })
        let redirect = try await flow.submit(login, ["userName": "demo", "password": "demo"])
        #expect(Step(redirect).type == "redirection-step")
        try await harness.finish()
    }
}
