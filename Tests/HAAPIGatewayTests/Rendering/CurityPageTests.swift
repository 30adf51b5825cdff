import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// What a page shows of a step, as Curity's sources say (notes 3.4, 3.7): the button and the form's heading, read-only
/// checkboxes, the polling cadence, and a designer's override reaching every member of the step.
@Suite("Pages as Curity's steps mean them")
struct CurityPageTests {
    let renderer: StepRenderer

    init() throws {
        renderer = try StepRenderer(templates: TemplateSettings(directory: GatewayHarness.templatesDirectory))
    }

    static func step(_ json: String) throws -> Representation {
        try Representation(json: try JSONValue.parse(Data(json.utf8)))
    }

    @Test("the button says actionTitle and the action's title heads the form (email-otp-form, action-reset-password)")
    func buttonAndHeading() throws {
        let otp = try renderer.render(
            json: try Data(contentsOf: SampleRenderingTests.samplesDirectory.appendingPathComponent("from-typescript/email-otp-form.json"))
        )
        #expect(otp.contains("<button type=\"submit\">Verify</button>"))
        #expect(otp.contains("Enter the OTP code"))
        #expect(!otp.contains("<button type=\"submit\">Enter the OTP code</button>"))
        let second = renderer.render(
            try Self.step(
                #"{"type":"authentication-step","messages":[{"text":"Sign in","classList":["heading"]}],"actions":[{"template":"form","kind":"login","title":"Second factor","model":{"href":"/a","method":"POST","actionTitle":"Send"}},{"template":"form","kind":"login","title":"Use the app","model":{"href":"/b","method":"POST"}}]}"#
            )
        )
        #expect(second.contains("<h2>Second factor</h2>"))
        #expect(second.contains("<button type=\"submit\">Send</button>"))
        // With only a title, the title is the button (and no heading repeats it).
        #expect(second.contains("<button type=\"submit\">Use the app</button>"))
        #expect(!second.contains("<h2>Use the app</h2>"))
    }

    @Test("a step of a type the gateway does not know shows its own title, messages and links")
    func unknownStepTypeShowsItsTitle() throws {
        let html = renderer.render(
            try Self.step(
                #"{"type":"future-step","title":"Almost there","messages":[{"text":"One more thing"}],"links":[{"href":"/help","rel":"help","title":"Get help"}]}"#
            )
        )
        #expect(html.contains("<h1>Almost there</h1>"))
        #expect(html.contains("One more thing"))
        #expect(html.contains("Get help"))
    }

    @Test("an action of an unknown template is shown: as a form when its model is one, else its title and why it cannot run here")
    func unknownTemplateActionsAreShown() throws {
        let html = renderer.render(
            try Self.step(
                #"{"type":"authentication-step","messages":[{"text":"Choose","classList":["heading"]}],"actions":[{"template":"future-form","kind":"login","title":"Answer","model":{"href":"/f","method":"POST","actionTitle":"Send answer","fields":[{"name":"answer","type":"text","label":"Your answer"}]}},{"template":"hologram","kind":"x","title":"Use the hologram","model":{"projector":"on","errorActions":[{"template":"form","kind":"login","title":"Use a password instead","model":{"href":"/p","method":"GET"}}]}}]}"#
            )
        )
        #expect(html.contains(#"action="/step/1/action/0""#) && html.contains("Your answer") && html.contains(">Send answer</button>"))
        #expect(html.contains("“Use the hologram” cannot be done on this page."))
        #expect(html.contains(#"action="/step/1/action/1.e0""#) && html.contains(">Use a password instead</button>"))
    }

    @Test("a read-only checkbox cannot be changed on the page")
    func readOnlyCheckboxIsDisabled() throws {
        let html = try renderer.render(
            json: try Data(contentsOf: SampleRenderingTests.samplesDirectory.appendingPathComponent("from-typescript/user-consent-step.json"))
        )
        let boxes = ScrapedForm.matches(#"(<input [^>]*type="checkbox"[^>]*>)"#, in: html)
        #expect(!boxes.isEmpty)
        let consent = try JSONValue.parse(
            try Data(contentsOf: SampleRenderingTests.samplesDirectory.appendingPathComponent("from-typescript/user-consent-step.json"))
        )
        let readOnly = ReadOnlyFieldNames.find(in: consent)
        for box in boxes {
            let name = ScrapedForm.attribute("name", in: box) ?? ""
            #expect(box.contains(" disabled") == readOnly.contains(name), "\(box)")
        }
    }

    /// The polling interval is milliseconds as a string ([UIKIT]); BankID polls every second; else the configured default.
    @Test(
        arguments: [
            (#""interval":"3000""#, "", 3), (#""interval":"250""#, "", 1), (#""interval":"4500""#, "", 5), ("", "", 2),
            ("", #","metadata":{"viewName":"authenticator/bankid/wait"}"#, 1),
            (#""interval":"7000""#, #","metadata":{"viewName":"authenticator/bankid/wait"}"#, 7),
            (#""pollInterval":"9""#, "", 2),
        ] as [(String, String, Int)]
    )
    func pollingCadence(interval: String, extra: String, seconds: Int) throws {
        let comma = interval.isEmpty ? "" : ","
        let step = try Self.step(
            #"{"type":"polling-step","properties":{"status":"pending"\#(comma)\#(interval)}\#(extra),"actions":[{"template":"form","kind":"poll","model":{"href":"/poll","method":"GET"}}]}"#
        )
        #expect(PollCadence.seconds(for: step, defaultSeconds: 2) == seconds)
        #expect(renderer.render(step).contains(#"<meta http-equiv="refresh" content="\#(seconds); url=/step/1/poll">"#))
    }

    @Test("an override reaches every member of the step as haapi, unknown members included; the default pages do without")
    func overrideReachesEveryMember() throws {
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        {{> header}}
        <p id="a">{{haapi.properties.recipientOfCommunication}}</p>
        {{#haapi.actions}}<p class="kind">{{kind}} {{properties.authenticatorType}} {{model.futureMember}}</p>{{/haapi.actions}}
        {{#haapi.messages}}<p class="m">{{text}} {{properties.extra}}</p>{{/haapi.messages}}
        {{#haapi.links}}<p class="l">{{rel}} {{custom}}</p>{{/haapi.links}}
        {{#haapi.unknownTopLevel}}<p id="u">{{value}}</p>{{/haapi.unknownTopLevel}}
        {{> footer}}
        """.write(to: directory.appendingPathComponent("step-polling.mustache"), atomically: true, encoding: .utf8)
        let overridden = try StepRenderer(templates: TemplateSettings(directory: GatewayHarness.templatesDirectory, overrideDirectory: directory))
        let step = try Self.step(
            #"{"type":"polling-step","properties":{"status":"pending","recipientOfCommunication":"j***@example.com"},"unknownTopLevel":{"value":"kept"},"messages":[{"text":"Check mail","properties":{"extra":"x1"}}],"links":[{"href":"/l","rel":"resend","custom":"c1"}],"actions":[{"template":"form","kind":"poll","properties":{"authenticatorType":"email"},"model":{"href":"/poll","method":"GET","futureMember":"f1"}}]}"#
        )
        let html = overridden.render(step)
        #expect(html.contains(#"<p id="a">j***@example.com</p>"#))
        #expect(html.contains(#"<p class="kind">poll email f1</p>"#))
        #expect(html.contains(#"<p class="m">Check mail x1</p>"#))
        #expect(html.contains(#"<p class="l">resend c1</p>"#))
        #expect(html.contains(#"<p id="u">kept</p>"#))
        // The default step page has no use for it and never builds it.
        #expect(!renderer.render(step).contains("j***@example.com"))
    }
}
