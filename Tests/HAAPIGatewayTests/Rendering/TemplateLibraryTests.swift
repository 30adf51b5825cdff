import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway

@Suite("Template loading and layering")
struct TemplateLibraryTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a missing templates directory fails at startup with a clear error (not an empty library)")
    func missingDirectoryFails() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        #expect(throws: GatewayError.self) { try TemplateLibrary(settings: TemplateSettings(directory: missing)) }
    }

    @Test("a directory without the required templates fails listing every missing one")
    func missingTemplatesAreListed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{{> header}}x{{> footer}}".write(to: directory.appendingPathComponent("step.mustache"), atomically: true, encoding: .utf8)
        do {
            _ = try TemplateLibrary(settings: TemplateSettings(directory: directory))
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .unreadableInput)
            for name in ["header", "footer", "form", "signed-in", "message", "cancel"] {
                #expect(error.message.contains("\(name).mustache"))
            }
            #expect(!error.message.contains("step.mustache"))
        }
    }

    @Test("an override directory replaces defaults file by file; a viewName template is picked for its step")
    func overridesLayerOverDefaults() throws {
        let overrides = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: overrides) }
        try "{{> header}}<p>custom signed in</p>{{> footer}}".write(
            to: overrides.appendingPathComponent("signed-in.mustache"),
            atomically: true,
            encoding: .utf8
        )
        try "{{> header}}<p>custom login view</p>{{> footer}}".write(
            to: overrides.appendingPathComponent("view-authenticator-html-form-authenticate-get.mustache"),
            atomically: true,
            encoding: .utf8
        )
        let library = try TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory, overrideDirectory: overrides))
        let renderer = PageRenderer(templates: library)
        let signedIn = renderer.page(
            for: SessionSnapshot(phase: .signedIn, step: nil, version: 1, csrfToken: "c", notices: [], fieldErrors: [:], values: [:]),
            language: "en"
        )
        #expect(signedIn.contains("custom signed in"))
        #expect(signedIn.contains("<html lang=\"en\">"), "header still from the defaults")
        let step = try Representation(json: [
            "type": "authentication-step", "metadata": ["viewName": "authenticator/html-form/authenticate/get"],
            "actions": [["template": "form", "kind": "login", "model": ["href": "/x", "method": "POST", "fields": []]]],
        ])
        let page = renderer.page(
            for: SessionSnapshot(phase: .step, step: step, version: 1, csrfToken: "c", notices: [], fieldErrors: [:], values: [:]),
            language: "en"
        )
        #expect(page.contains("custom login view"))
    }

    @Test("an override using template inheritance or a dynamic partial name is refused at startup, naming the file and the line")
    func optionalMustacheModulesAreRefusedAtLoad() throws {
        for (source, line, reason) in [("<main>\n{{<layout}}{{/layout}}", 2, "inheritance"), ("<main>\n<p>\n  {{>*view}}\n", 3, "dynamic names")] {
            let overrides = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: overrides) }
            try source.write(to: overrides.appendingPathComponent("view-custom.mustache"), atomically: true, encoding: .utf8)
            do {
                _ = try TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory, overrideDirectory: overrides))
                Issue.record("\(source.debugDescription) loaded")
            } catch {
                #expect(error.code == .configuration)
                #expect(error.message.contains("template view-custom.mustache does not parse: line \(line): "), "\(error.message)")
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
    }

    @Test("a step's template names: view-<viewName> lowercased with other characters as hyphens, then step-<kind>, then step")
    func templateCandidates() throws {
        func names(_ viewName: String) throws -> [String] {
            StepPageBuilder.templateCandidates(
                for: try Representation(json: ["type": "authentication-step", "metadata": ["viewName": .string(viewName)], "actions": []])
            )
        }
        #expect(
            try names("Authenticator/HTML-Form/authenticate_get.2") == ["view-authenticator-html-form-authenticate-get-2", "step-generic", "step"]
        )
        #expect(try names("Välj/Kontö") == ["view-välj-kontö", "step-generic", "step"])
    }

    @Test("the escaping replaces exactly < > & \" ' with entities, and leaves clean text as it is")
    func escapingReplacesFiveCharacters() throws {
        let cases = [
            ("", ""), ("plain", "plain"), ("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"),
            ("a & b \"c\" 'd' <e>", "a &amp; b &quot;c&quot; &#39;d&#39; &lt;e&gt;"), ("Jörg ✓ 👩‍👩‍👧", "Jörg ✓ 👩‍👩‍👧"),
            ("&amp; already", "&amp;amp; already"), ("<<>>&&''\"\"", "&lt;&lt;&gt;&gt;&amp;&amp;&#39;&#39;&quot;&quot;"),
        ]
        for (text, escaped) in cases {
            #expect(HTMLEscaping.escape(text) == escaped)
        }
    }

    @Test("an override template is escaped by the gateway too")
    func overridesAreEscapedByTheGateway() throws {
        let overrides = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: overrides) }
        try "<p title=\"{{title}}\">{{title}}</p>".write(to: overrides.appendingPathComponent("message.mustache"), atomically: true, encoding: .utf8)
        let library = try TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory, overrideDirectory: overrides))
        let title = "\"\u{301}<\u{301}", escaped = "&quot;\u{301}&lt;\u{301}"
        let html = library.render(["title": .string(title)], template: "message")
        #expect(html == "<p title=\"\(escaped)\">\(escaped)</p>")
    }
}
