import Foundation
import Testing

@testable import HAAPI

/// Every shared sample decodes to the expected Swift type, with spot checks of fields.
@Suite struct SampleDecodingTests {
    enum Expected: Sendable, CustomStringConvertible {
        case step(StepKind)
        case problem(ProblemKind)
        var description: String {
            switch self {
            case .step(let kind): "step \(kind)"
            case .problem(let kind): "problem \(kind)"
            }
        }
    }

    static let table: [String: Expected] = [
        "authenticator-selector-many.json": .step(.authenticatorSelector),
        "authenticator-selector-with-links.json": .step(.authenticatorSelector),
        "authenticator-selector.json": .step(.authenticatorSelector),
        "bankid-client-operation-same-device.json": .step(.bankIDClientOperation),
        "bankid-select-same-or-other-device.json": .step(.interactiveForm),
        "continue-same-step.json": .step(.continueSame),
        "curity-docs/example-encap-redirection-to-select-device.json": .step(.redirection),
        "curity-docs/example-encap-username-form.json": .step(.interactiveForm),
        "curity-docs/example-username-redirection-step.json": .step(.redirection),
        "duo-nested-selectors-continue-actions.json": .step(.interactiveForm),
        "from-typescript/action-opt-in-mfa-select.json": .step(.authenticatorSelector),
        "from-typescript/action-opt-in-mfa-setup-confirm.json": .step(.interactiveForm),
        "from-typescript/action-opt-in-mfa-setup.json": .step(.authenticatorSelector),
        "from-typescript/action-request-acknowledgement.json": .step(.interactiveForm),
        "from-typescript/action-reset-password.json": .step(.interactiveForm),
        "from-typescript/action-selector.json": .step(.interactiveForm),
        "from-typescript/action-signup-registration.json": .step(.interactiveForm),
        "from-typescript/authenticator-selector-with-authenticator-types.json": .step(.authenticatorSelector),
        "from-typescript/duo-select-device.json": .step(.interactiveForm),
        "from-typescript/email-otp-form.json": .step(.interactiveForm),
        "from-typescript/html-form-account-created-registration.json": .step(.interactiveForm),
        "from-typescript/html-form-login.json": .step(.interactiveForm),
        "from-typescript/html-form-otp-activation-text-kind-number.json": .step(.interactiveForm),
        "from-typescript/polling-email-link-wait-pending.json": .step(.polling),
        "from-typescript/synthetic-form-hidden-field.json": .step(.interactiveForm),
        "from-typescript/synthetic-form-select-text-checkbox.json": .step(.interactiveForm),
        "from-typescript/synthetic-incorrect-credentials-problem.json": .problem(.incorrectCredentials),
        "from-typescript/synthetic-invalid-input-problem-missing.json": .problem(.invalidInput),
        "from-typescript/user-consent-step.json": .step(.userConsent),
        "from-typescript/webauthn-registration-any-device.json": .step(.webAuthnRegistrationClientOperation),
        "from-typescript/webauthn-registration-completed.json": .step(.interactiveForm),
        "from-typescript/webauthn-registration-passkeys.json": .step(.webAuthnRegistrationClientOperation),
        "incorrect-credentials-problem-with-messages.json": .problem(.incorrectCredentials),
        "incorrect-credentials-problem.json": .problem(.incorrectCredentials),
        "invalid-input-problem.json": .problem(.invalidInput),
        "ios-ui-kit-previewer/generic-selector-plus-bankid-other-device-form.json": .step(.authenticatorSelector),
        "ios-ui-kit-previewer/polling-bankid-pending-qr-client-operation.json": .step(.polling),
        "ios-ui-kit-previewer/polling-sms-link-wait-pending.json": .step(.polling),
        "ios-ui-kit-previewer/unexpected-problem-dpop-session-mismatch.json": .problem(.unexpected),
        "ios-ui-kit-previewer/webauthn-additional-registration-offer.json": .step(.webAuthnRegistrationClientOperation),
        "ios-ui-kit-previewer/webauthn-authentication.json": .step(.webAuthnAuthenticationClientOperation),
        "ios-ui-kit-previewer/webauthn-registration-cross-platform-and-platform.json": .step(.webAuthnRegistrationClientOperation),
        "ios-ui-kit-previewer/webauthn-registration-platform-only.json": .step(.webAuthnRegistrationClientOperation),
        "legacy/launch-external-browser-prerelease.json": .step(.generic),
        "oauth-authorization-response-code-only.json": .step(.oauthAuthorizationResponse),
        "oauth-authorization-response.json": .step(.oauthAuthorizationResponse),
        "polling-duo-done.json": .step(.polling),
        "polling-duo-pending.json": .step(.polling),
        "redirection-step.json": .step(.redirection),
        "registration-encap-activation-select-field.json": .step(.interactiveForm),
        "username-password-form-title-inside-model.json": .step(.interactiveForm),
        "username-password-form.json": .step(.interactiveForm),
    ]

    @Test func tableCoversEverySampleFileAndNothingElse() throws {
        let paths = try Fixture.allSamplePaths()
        #expect(paths.count >= 50)
        #expect(Set(paths) == Set(Self.table.keys))
    }

    @Test(arguments: SampleDecodingTests.table.keys.sorted())
    func sampleDecodesToExpectedKind(path: String) throws {
        let expected = try #require(Self.table[path])
        let response = try Fixture.response(path)
        switch (expected, response) {
        case (.step(let kind), .representation(let step)):
            #expect(step.stepKind == kind, "\(path)")
            #expect(step.raw["type"]?.stringValue == step.type.rawValue)
        case (.problem(let kind), .problem(let problem)):
            #expect(problem.kind == kind, "\(path)")
        default:
            Issue.record("\(path): expected \(expected), got \(response)")
        }
    }

    @Test func rawJSONIsKeptAndReEncodesToTheSameValue() throws {
        let step = try Fixture.representation("duo-nested-selectors-continue-actions.json")
        let original = try JSONDecoder().decode(JSONValue.self, from: try Fixture.data("duo-nested-selectors-continue-actions.json"))
        #expect(step.raw == original)
        let reencoded = try JSONDecoder().decode(JSONValue.self, from: try step.raw.encodedData())
        #expect(reencoded == original)
    }

    @Test(
        "decoded without keeping JSON, no step, action, field or link of any sample holds a raw tree",
        arguments: SampleDecodingTests.table.keys.sorted()
    )
    func leanDecodingKeepsNoRawJSON(path: String) throws {
        guard !path.contains("problem") else { return }
        let response = try HAAPIResponse.decode(
            status: 200,
            contentType: "application/vnd.auth+json",
            body: try Fixture.data(path),
            keepingRawJSON: false
        )
        guard case .representation(let step) = response else { return }
        #expect(step.raw == .null)
        var actions = step.actions
        while let action = actions.popLast() {
            #expect(action.raw == .null, "\(path): action \(action.template)")
            switch action.model {
            case .form(let form):
                #expect(form.fields.allSatisfy { $0.raw == .null }, "\(path)")
                actions += form.continueActions + form.errorActions
            case .selector(let options): actions += options
            case .clientOperation(let operation): actions += operation.continueActions + operation.errorActions
            default: break
            }
        }
        #expect(step.links.allSatisfy { $0.raw == .null }, "\(path)")
        #expect(try Fixture.representation(path).stepKind == step.stepKind)
    }

    @Test func usernamePasswordFormHasRelativeHrefFieldsAndLinks() throws {
        let step = try Fixture.representation("username-password-form.json")
        let form = try #require(step.actions.first?.form)
        #expect(step.actions.first?.kind == .login)
        #expect(form.method == "POST")
        #expect(form.type == "application/x-www-form-urlencoded")
        #expect(form.href.hasPrefix("/"))
        #expect(form.fields.map(\.type) == [.username, .password])
        #expect(step.links.map(\.rel) == ["forgot-password", "forgot-account-id", "register-create"])
        #expect(step.metadata?.viewName == "authenticator/html-form/authenticate/get")
    }

    @Test func titleInsideTheFormModelIsUsedAsActionTitle() throws {
        let step = try Fixture.representation("username-password-form-title-inside-model.json")
        #expect(step.actions.first?.title == "Login")
        #expect(step.actions.first?.form?.title == "Login")
    }

    @Test func leadingSpaceInKindIsTrimmed() throws {
        let step = try Fixture.representation("curity-docs/example-username-redirection-step.json")
        #expect(step.actions.first?.kind == .redirect)
        #expect(step.actions.first?.kind.rawValue == "redirect")
    }

    @Test func unknownKindIsKeptAsItsString() {
        let kind = ActionKind(rawValue: "brand-new-kind")
        #expect(kind.rawValue == "brand-new-kind")
        #expect(!kind.isKnown)
        #expect(ActionKind.poll.isKnown)
    }

    @Test func selectTextAndCheckboxFieldsCarryTheirAttributes() throws {
        let form = try #require(try Fixture.representation("from-typescript/synthetic-form-select-text-checkbox.json").actions.first?.form)
        let select = try #require(form.field(named: "character"))
        #expect(select.type == .select)
        #expect(select.options.map(\.value) == ["bart", "lisa"])
        #expect(select.options.map(\.selected) == [false, true])
        let text = try #require(form.field(named: "something"))
        #expect(text.type == .text && text.value == "foo" && text.label == "Something")
        let checkbox = try #require(form.field(named: "accept"))
        #expect(checkbox.type == .checkbox && checkbox.value == "yes" && checkbox.checked == nil)
        let fixed = try #require(form.field(named: "always-checked"))
        #expect(fixed.checked == true && fixed.readonly == true)
    }

    @Test func textFieldKindAndHiddenValueAreDecoded() throws {
        let step = try Fixture.representation("from-typescript/html-form-otp-activation-text-kind-number.json")
        let fields = step.actions.compactMap(\.form).flatMap(\.fields)
        #expect(fields.contains { $0.type == .text && $0.textKind == "number" })
        let hidden = try Fixture.representation("from-typescript/synthetic-form-hidden-field.json").actions.first?.form?.fields.first
        #expect(hidden?.type == .hidden)
        #expect(hidden?.value != nil)
    }

    @Test func contextFieldInWebAuthnContinueAction() throws {
        let step = try Fixture.representation("ios-ui-kit-previewer/webauthn-authentication.json")
        let operation = try #require(step.actions.first?.clientOperation)
        #expect(operation.name == "webauthn-authentication")
        #expect(operation.arguments?["credentialRequestOptions"]?["publicKey"]?["rpId"]?.stringValue == "localhost")
        let continueForm = try #require(operation.continueActions.first?.form)
        #expect(continueForm.isJSON)
        #expect(continueForm.fields.first?.type == .context)
        #expect(continueForm.fields.first?.name == "credential")
        #expect(operation.errorActions.first?.form?.href.contains("_force_external_browser_flow=true") == true)
    }

    @Test func bankIDClientOperationHasArgumentsAndNestedActions() throws {
        let step = try Fixture.representation("bankid-client-operation-same-device.json")
        let operation = try #require(step.actions.first?.clientOperation)
        #expect(operation.name == "bankid")
        #expect(operation.arguments?["autoStartToken"]?.stringValue == "04b7c1bd-6d7b-46c0-b8ed-00f5cf39688c")
        #expect(operation.continueActions.first?.kind == .redirect)
        #expect(operation.errorActions.first?.kind == .bankIDOtherDevice)
        #expect(operation.errorActions.first?.form?.fields.map(\.type) == [.username, .hidden])
    }

    @Test func duoNestedSelectorsKeepTheirOptions() throws {
        let step = try Fixture.representation("duo-nested-selectors-continue-actions.json")
        let outer = try #require(step.actions.first?.selectorOptions)
        #expect(step.actions.first?.kind == .deviceSelector)
        #expect(!outer.isEmpty)
        #expect(outer.contains { $0.selectorOptions != nil })
    }

    @Test func authenticatorSelectorOptionsAreFormsWithProperties() throws {
        let step = try Fixture.representation("from-typescript/authenticator-selector-with-authenticator-types.json")
        let options = try #require(step.actions.first?.selectorOptions)
        #expect(options.allSatisfy { $0.form != nil && $0.kind == .selectAuthenticator })
        #expect(options.contains { $0.properties?["authenticatorType"]?.stringValue != nil })
    }

    @Test func pollingPropertiesAsSent() throws {
        let pending = try #require(try Fixture.representation("polling-duo-pending.json").polling)
        #expect(pending.status == .pending)
        #expect(try Fixture.representation("polling-duo-done.json").polling?.status == .done)
        let bankID = try Fixture.representation("ios-ui-kit-previewer/polling-bankid-pending-qr-client-operation.json")
        #expect(bankID.polling?.maxWaitTime == "60")
        #expect(bankID.polling?.maxWaitRemainingTime == "57")
        #expect(bankID.polling?.intervalMilliseconds == nil)
        let qr = try #require(bankID.links.first)
        #expect(qr.isImage && qr.type == "image/png" && qr.rel == "activation")
        let email = try Fixture.representation("from-typescript/polling-email-link-wait-pending.json")
        #expect(email.polling?.recipientOfCommunication != nil)
    }

    /// Curity's `interval` is milliseconds as a string ([UIKIT] `Number(properties.interval)`); `pollInterval` exists only in
    /// its HTML templates and is not read.
    @Test(
        arguments: [
            (#""interval":"3000""#, 3000), (#""interval":1500"#, 1500), (#""interval":"250""#, 250), (#""pollInterval":"3""#, nil),
            (#""interval":"soon""#, nil), (#""interval":"-5""#, nil),
        ] as [(String, Int?)]
    )
    func pollingIntervalIsMillisecondsAsSent(member: String, milliseconds: Int?) throws {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"type":"polling-step","properties":{"status":"pending",\#(member)}}"#.utf8))
        #expect(try Representation(json: json).polling?.intervalMilliseconds == milliseconds)
    }

    @Test func authorizationResponseCarriesCodeAndState() throws {
        let step = try Fixture.representation("oauth-authorization-response.json")
        #expect(step.authorizationResponse?.code == "OZxymZHVjkEhf9fajYz0jNPOaJaQpXTg")
        #expect(step.authorizationResponse?.state == "foo")
        #expect(step.links.first?.rel == "authorization-response")
        let codeOnly = try Fixture.representation("oauth-authorization-response-code-only.json")
        #expect(codeOnly.authorizationResponse?.state == nil)
    }

    @Test func consentStepHasReadonlyCheckedCheckboxes() throws {
        let step = try Fixture.representation("from-typescript/user-consent-step.json")
        let form = try #require(step.actions.first?.form)
        #expect(form.fields.filter { $0.type == .checkbox }.allSatisfy { $0.checked == true && $0.readonly == true })
        #expect(step.messages.first?.classList == ["heading"])
    }

    @Test func encapRegistrationHasSelectOptionsMessagesAndQRCode() throws {
        let step = try Fixture.representation("registration-encap-activation-select-field.json")
        #expect(step.type == .registrationStep)
        #expect(step.messages.map(\.classList).contains(["info", "activationCode"]))
        #expect(step.links.first?.isImage == true)
        #expect(step.actions.first?.form?.field(named: "devicetype")?.options.count == 3)
    }

    @Test func invalidInputProblemListsInvalidFields() throws {
        let problem = try Fixture.problem("invalid-input-problem.json")
        #expect(problem.invalidFields.map(\.name) == ["password", "userName"])
        #expect(problem.invalidFields.allSatisfy { $0.reason == "invalidValue" })
        #expect(problem.title == "Form Errors")
        #expect(problem.metadata?.templateArea == "html1")
        let missing = try Fixture.problem("from-typescript/synthetic-invalid-input-problem-missing.json")
        #expect(missing.invalidFields.first?.reason == "missing")
        #expect(missing.messages.first?.classList == ["is-error"])
        #expect(missing.links.first?.rel == "forgot-password")
    }

    @Test func unexpectedProblemKeepsCodeMessagesAndRestartLink() throws {
        let problem = try Fixture.problem("ios-ui-kit-previewer/unexpected-problem-dpop-session-mismatch.json")
        #expect(problem.code == "authorization_failed")
        #expect(problem.messages.count == 2)
        #expect(problem.links.first?.rel == "restart")
    }

    @Test func legacyLaunchTemplateIsKeptAsUnknownTemplate() throws {
        let step = try Fixture.representation("legacy/launch-external-browser-prerelease.json")
        guard case .unknown(let template, let model) = step.actions.first?.model else {
            Issue.record("expected an unknown template")
            return
        }
        #expect(template == "launch")
        #expect(model?["href"]?.stringValue != nil)
        #expect(step.actions.first?.kind == .externalBrowser)
    }
}
