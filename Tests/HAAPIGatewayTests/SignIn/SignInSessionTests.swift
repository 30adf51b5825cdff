import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

@Suite("Sign-in session checks made before any upstream call")
struct SignInSessionTests {
    static let requiredStep: JSONValue = [
        "type": "authentication-step",
        "actions": [
            [
                "template": "form", "kind": "login", "title": "Login",
                "model": [
                    "href": "/authn/authentication/html-form", "method": "POST",
                    "fields": [
                        ["name": "userName", "type": "username", "label": "Username", "required": true],
                        ["name": "password", "type": "password", "label": "Password", "required": true],
                        ["name": "remember", "type": "checkbox", "label": "Remember me", "checked": true, "required": false],
                        ["name": "_state", "type": "hidden", "value": "from-the-step"],
                    ],
                ],
            ]
        ],
    ]

    /// A step whose fields say nothing about `required`, but for one that says `required: false`.
    static let silentStep: JSONValue = [
        "type": "authentication-step",
        "actions": [
            [
                "template": "form", "kind": "login",
                "model": [
                    "href": "/authn/authenticate", "method": "POST",
                    "fields": [
                        ["name": "code", "type": "text", "label": "Code"],
                        ["name": "terms", "type": "checkbox", "label": "I accept the terms"],
                        ["name": "note", "type": "text", "label": "Note", "required": false],
                        ["name": "newsletter", "type": "checkbox", "label": "Newsletter", "required": false],
                    ],
                ],
            ]
        ],
    ]

    private func withSession(initialStep: JSONValue = requiredStep, _ body: (SignInSession) async throws -> Void) async throws {
        let demo = try await DemoServer.start()
        let configuration = HAAPIClientConfiguration(
            baseURL: demo.issuerURL,
            clientID: DemoServer.clientID,
            clientAuthentication: .secretBasic(DemoServer.clientSecret),
            redirectURI: DemoServer.redirectURI,
            scopes: ["openid"]
        )
        let client = try await HAAPIClient(configuration: configuration)
        let logger = Logger(label: "session-test")
        // A step shown before any upstream call.
        var record = SignInRecord()
        record.step = try Representation(json: initialStep)
        record.version = 1
        let session = SignInSession(
            record: record,
            flow: client.makeFlow(),
            dispatcher: CallbackDispatcher(sinks: .fixed([]), logger: logger),
            logger: logger
        )
        do {
            try await body(session)
        } catch {
            try? await client.shutdown()
            await demo.shutdown()
            throw error
        }
        try await client.shutdown()
        await demo.shutdown()
    }

    @Test("the fields a page shows: forms and selector options, not a form's continue actions (those show after continue-same-step)")
    func fieldsOnThePage() throws {
        let step = try Representation(json: [
            "type": "authentication-step",
            "actions": [
                [
                    "template": "selector", "kind": "device-selector",
                    "model": [
                        "options": [
                            [
                                "template": "form", "kind": "login",
                                "model": [
                                    "href": "/send", "method": "POST",
                                    "fields": [["name": "phone", "type": "text"], ["name": "device", "type": "hidden", "value": "d"]],
                                    "continueActions": [
                                        [
                                            "template": "form", "kind": "login",
                                            "model": ["href": "/verify", "method": "POST", "fields": [["name": "otp", "type": "text"]]],
                                        ]
                                    ],
                                ],
                            ]
                        ]
                    ],
                ]
            ],
        ])
        #expect(ProblemPage.fieldNames(of: step) == ["phone"])
    }

    @Test("a missing required field re-renders with the field's error and typed values (not passwords), without calling upstream")
    func requiredFieldsCheckedLocally() async throws {
        try await withSession { session in
            // The flow was never started: any upstream call would fail and throw.
            let result = try await session.submit(
                version: 1,
                address: ActionAddress(path: "0")!,
                form: ["userName": "", "password": "secret"],
                acceptLanguage: nil
            )
            let required = PageText.gateway(.requiredField, arguments: ["field": "Username"])
            #expect(result.refusal == .missingFields(["userName": required], typed: ["userName": "", "remember": ""]))
            #expect(result.phase == .step && result.version == 1 && !result.isFailedPost, "refused by the gateway, not a failed post")
            let snapshot = await session.snapshot()
            #expect(snapshot.version == 1)
            #expect(snapshot.notices == [.gateway(.fillRequired)])
            #expect(snapshot.fieldErrors["userName"] == .gateway(.requiredField, arguments: ["field": "Username"]))
            #expect(snapshot.values["password"] == nil)
        }
    }

    @Test("a field without required is required, a checkbox too (Curity's React SDK: required ?? true); required: false is not; the page marks them")
    func requiredByDefault() async throws {
        try await withSession(initialStep: Self.silentStep) { session in
            try await session.submit(version: 1, address: ActionAddress(path: "0")!, form: [:], acceptLanguage: nil)
            let snapshot = await session.snapshot()
            #expect(snapshot.notices == [.gateway(.fillRequired)])
            #expect(Set(snapshot.fieldErrors.keys) == ["code", "terms"])
            let renderer = PageRenderer(templates: try TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory)))
            let page = renderer.page(for: snapshot, language: "en")
            #expect(page.contains(#"name="code" type="text" autocomplete="off" value="" required"#), "\(page)")
            #expect(page.contains(#"name="terms" type="checkbox" required"#))
            #expect(!page.contains(#"name="note" type="text" autocomplete="off" value="" required"#))
            #expect(!page.contains(#"name="newsletter" type="checkbox" required"#))
        }
    }

    @Test("after a re-render, an unchecked checkbox stays unchecked and typed text stays (the person's choices are kept)")
    func choicesKept() async throws {
        try await withSession { session in
            try await session.submit(
                version: 1,
                address: ActionAddress(path: "0")!,
                form: ["userName": "alice", "password": ""],
                acceptLanguage: nil
            )
            let renderer = PageRenderer(templates: try TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory)))
            let page = renderer.page(for: await session.snapshot(), language: "en")
            let form = try #require(ScrapedForm.all(in: page).first { $0.inputs.contains { $0.name == "remember" } })
            #expect(form.fields["remember"] == nil, "unchecked as the person left it")
            #expect(form.fields["userName"] == "alice")
            let fresh = renderer.page(for: await session.snapshot(), language: "en")
            #expect(
                ScrapedForm.all(in: fresh).first { $0.inputs.contains { $0.name == "remember" } }?.fields["remember"] != nil,
                "the step's default once the notice is consumed"
            )
        }
    }

    @Test("a post from a page of another version is refused as stale, its notice on the next page, nothing sent upstream")
    func stalePageRefused() async throws {
        try await withSession { session in
            let result = try await session.submit(version: 7, address: ActionAddress(path: "0")!, form: [:], acceptLanguage: nil)
            #expect(result.refusal == .stalePage && result.version == 1 && !result.isFailedPost)
            #expect(await session.snapshot().notices == [.gateway(.stalePage)])
        }
    }

    @Test("an address that names no action of the current step is a bad request")
    func unknownAddressRefused() async throws {
        try await withSession { session in
            await #expect(throws: GatewayError.self) {
                try await session.submit(version: 1, address: ActionAddress(path: "3")!, form: [:], acceptLanguage: nil)
            }
            await #expect(throws: GatewayError.self) {
                try await session.submit(version: 1, address: ActionAddress(path: "0.c0")!, form: [:], acceptLanguage: nil)
            }
        }
    }

    @Test("malformed action paths do not parse")
    func malformedPaths() {
        for path in ["", "a", "0..1", "0.x1", "-1", "0.c", String(repeating: "0.", count: 10) + "0", "1e5"] {
            #expect(ActionAddress(path: path) == nil, "\(path)")
        }
        #expect(ActionAddress(path: "0.2.c1")?.description == "0.2.c1")
    }
}
