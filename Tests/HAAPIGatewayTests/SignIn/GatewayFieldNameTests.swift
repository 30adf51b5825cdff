import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// An upstream form field whose name is one of the gateway's own (`_csrf`) keeps what the person typed, and the
/// session's CSRF token never goes upstream (``PageFieldName``, ``PostedStepForm``).
@Suite("Field names the gateway owns")
struct GatewayFieldNameTests {
    static let step: JSONValue = [
        "type": "authentication-step",
        "actions": [
            [
                "template": "form", "kind": "login", "title": "Verify",
                "model": [
                    "href": "/authn/authentication/code", "method": "POST",
                    "fields": [
                        ["name": "_csrf", "type": "text", "label": "Code", "required": true],
                        ["name": "_upstream_csrf", "type": "text", "label": "Second code"],
                        ["name": "userName", "type": "username", "label": "Username"],
                        ["name": "_resume_nonce", "type": "text", "label": "Resume code"],
                        ["name": "_state", "type": "hidden", "value": "from-the-step"],
                    ],
                ],
            ]
        ],
    ]

    /// The body a browser posts for `form`: every input in page order, the visible ones as the person filled them.
    static func browserBody(_ form: ScrapedForm, html: String, typing typed: [String: String]) throws -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        var pairs: [String] = []
        for (name, type) in form.inputs {
            let value = type == "hidden" ? try #require(Self.hiddenValue(name, in: html)) : typed[name] ?? ""
            pairs.append(
                (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                    + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            )
        }
        return pairs.joined(separator: "&")
    }

    static func hiddenValue(_ name: String, in html: String) -> String? {
        ScrapedForm.matches(#"<input type="hidden" name="\#(name)" value="([^"]*)">"#, in: html).first
    }

    @Test("a visible upstream field named _csrf is another name on the page and is mapped back: what the person typed goes upstream, never the token")
    func upstreamFieldNamedLikeTheGatewaysToken() throws {
        let renderer = try StepRenderer(templates: TemplateSettings(directory: GatewayHarness.templatesDirectory))
        let representation = try Representation(json: Self.step)
        let html = renderer.render(representation)
        let form = try #require(ScrapedForm.all(in: html).first { $0.button == "Verify" })
        let names = form.inputs.map(\.name)
        #expect(names.filter { $0 == "_csrf" }.count == 1, "one _csrf on the page, the gateway's: \(names)")
        #expect(names.contains("_upstream_csrf") && names.contains("_upstream_upstream_csrf") && names.contains("userName"), "\(names)")
        #expect(!names.contains("_state"), "hidden upstream fields stay on the server")
        #expect(names.contains("_resume_nonce"), "a name that is not the gateway's keeps its name (Curity's external-browser field)")

        let body = try Self.browserBody(
            form,
            html: html,
            typing: ["_upstream_csrf": "typed-code", "_upstream_upstream_csrf": "second", "userName": "demo", "_resume_nonce": "n"]
        )
        // The gateway reads the body as it reads every post: the CSRF check takes `_csrf`, the step the rest.
        let posted = FormBody(parsing: body)
        #expect(posted.values["_csrf"] == "CSRF", "the gateway's own field still carries the session's token")
        let model = try #require(representation.actions.first?.form)
        let submission = PostedStepForm(model: model, posted: posted.values)
        #expect(submission.parameters["_csrf"] == .string("typed-code"))
        #expect(submission.parameters["_upstream_csrf"] == .string("second"))
        #expect(submission.parameters["userName"] == .string("demo"))
        #expect(submission.parameters["_resume_nonce"] == .string("n"))
        #expect(!submission.parameters.values.contains(.string("CSRF")), "the session's CSRF token is never sent upstream")
        #expect(submission.parameters["_state"] == nil, "hidden fields are added from the step by the client, not the browser")
        #expect(submission.missing.isEmpty)
    }

    @Test("a required upstream _csrf field left empty is named as missing, though the gateway's _csrf was posted")
    func emptyUpstreamFieldIsMissing() throws {
        let model = try #require(try Representation(json: Self.step).actions.first?.form)
        let submission = PostedStepForm(model: model, posted: ["_csrf": "CSRF", "userName": "demo"])
        #expect(submission.missing["_csrf"] != nil)
        #expect(submission.parameters["_csrf"] == nil)
    }
}
