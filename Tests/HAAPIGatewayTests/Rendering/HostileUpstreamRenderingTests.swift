import Foundation
import HAAPI
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// A hostile or broken upstream document is refused or rendered harmlessly: deep nesting, huge strings, wrong types,
/// markup in every string, `javascript:` and off-origin hrefs, template names with path segments.
@Suite("Hostile upstream documents")
struct HostileUpstreamRenderingTests {
    let renderer: StepRenderer

    init() throws {
        renderer = try StepRenderer(templates: TemplateSettings(directory: GatewayHarness.templatesDirectory))
    }

    /// Members whose values steer decoding (types, templates, methods, kinds, hrefs); every other string is text.
    private static let structural: Set<String> = [
        "type", "template", "method", "kind", "href", "viewName", "contentType", "status", "name", "rel", "templateArea",
    ]
    private static let payload = #""'><script>alert(1)</script><img src=x onerror=alert(1)>javascript:alert(1)"#

    /// The sample with `payload` in place of every non-structural string.
    private static func poisoned(_ value: Any, key: String? = nil) -> Any {
        switch value {
        case let object as [String: Any]:
            return Dictionary(uniqueKeysWithValues: object.map { ($0.key, poisoned($0.value, key: $0.key)) })
        case let array as [Any]:
            return array.map { poisoned($0, key: key) }
        case is String:
            return key.map(structural.contains) == true ? value : payload
        default:
            return value
        }
    }

    @Test(
        "markup in every text of every sample is escaped: no inline script, no tag, no javascript: reaches the page",
        arguments: SampleRenderingTests.samples
    )
    func markupInEveryString(_ sample: URL) throws {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: sample))
        let data = try JSONSerialization.data(withJSONObject: Self.poisoned(object))
        // Every sample renders: a render that throws fails the test, rather than passing it with nothing checked.
        let html = try renderer.render(json: data)
        // The only scripts are the gateway's own files from /assets/ (a waiting page's refresh.js, say).
        let scripts = html.lowercased().components(separatedBy: "<script").count - 1
        #expect(scripts == ScrapedForm.matches(#"(<script src="/assets/[a-z0-9.-]+\.js" defer></script>)"#, in: html).count)
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("'><"))
        #expect(!html.lowercased().contains("href=\"javascript:"))
    }

    @Test("javascript:, data:text and off-origin hrefs on links, forms and client operations never become a link or form target")
    func hostileHrefs() throws {
        let json: JSONValue = [
            "type": "authentication-step",
            "metadata": ["viewName": "../../../../etc/passwd"],
            "actions": [
                ["template": "form", "kind": "login", "title": "Go", "model": ["href": "javascript:alert(1)", "method": "POST", "fields": []]],
                [
                    "template": "form", "kind": "login", "title": "Off",
                    "model": ["href": "https://evil.example/steal", "method": "POST", "fields": []],
                ],
                [
                    "template": "client-operation", "kind": "continue", "title": "Out",
                    "model": ["name": "external-browser-flow", "arguments": ["href": "javascript:alert(1)"], "continueActions": []],
                ],
            ],
            "links": [
                ["href": "javascript:alert(1)", "rel": "help", "title": "Help"],
                ["href": "https://evil.example/phish", "rel": "help", "title": "Phish"],
                ["href": "data:text/html,<script>alert(1)</script>", "rel": "qr", "type": "image/png", "title": "QR"],
            ],
        ]
        let html = renderer.render(try Representation(json: json))
        #expect(!html.lowercased().contains("javascript:"))
        #expect(!html.contains("evil.example"))
        #expect(!html.contains("data:text/html"))
        #expect(!html.contains("root:"), "a view name is never a path")
        for action in ScrapedForm.matches(#"<form[^>]* action="([^"]*)""#, in: html) {
            #expect(action.hasPrefix("/"), "forms post to the gateway only: \(action)")
        }
    }

    /// Escaping that compares whole characters (as swift-mustache's did) lets a quote followed by a combining mark (one
    /// character) pass unescaped and end the attribute; the gateway's escaping works on bytes (``HTMLEscaping``).
    @Test("a quote or bracket joined by a combining mark is escaped too: an upstream placeholder or value cannot leave its attribute")
    func combiningMarksAfterQuotes() throws {
        let breakout = "x\"\u{301} autofocus onfocus=alert(1) data-x=\"\u{301}"
        let json: JSONValue = [
            "type": "authentication-step",
            "actions": [
                [
                    "template": "form", "kind": "login", "title": "Sign in",
                    "model": [
                        "href": "/authn/authenticate/html-form", "method": "POST",
                        "fields": [
                            ["name": "userName", "type": "text", "label": "User", "placeholder": .string(breakout), "value": .string(breakout)]
                        ],
                    ],
                ]
            ],
            "messages": [["text": .string("<\u{301}b>" + breakout), "classList": ["info"]]],
        ]
        let html = renderer.render(try Representation(json: json))
        // Built outside the expectations: the testing macros cannot quote a literal that starts with a combining mark.
        let quoteWithMark = "\"\u{301}", bracketWithMark = "<\u{301}", escapedQuote = "&quot;\u{301} autofocus"
        #expect(!html.contains(quoteWithMark), "a quote with a combining mark reached the page unescaped")
        #expect(!html.contains(bracketWithMark))
        #expect(html.contains(escapedQuote))
    }

    /// `"`, `<`, `>` and `&`, each joined by a combining mark (one character each), and an attribute they would open.
    private static let markedPayload = "x\"\u{301}<\u{301}>\u{301}&\u{301} onfocus=alert(1) y"

    /// The sample with `markedPayload` in place of every non-structural string, and an activation link (drawn as a QR
    /// code whose accessible name is its title) titled with it.
    private static func markedEverywhere(_ sample: URL) throws -> Data {
        var object = try #require(poisoned(try JSONSerialization.jsonObject(with: try Data(contentsOf: sample))) as? [String: Any])
        object = Self.replacingPayload(in: object) as! [String: Any]
        var links = object["links"] as? [Any] ?? []
        links.append(["href": "https://app.example/activate?code=1", "rel": "activation", "title": markedPayload])
        object["links"] = links
        return try JSONSerialization.data(withJSONObject: object)
    }

    private static func isProblem(_ sample: URL) -> Bool {
        let object = (try? JSONSerialization.jsonObject(with: Data(contentsOf: sample))) as? [String: Any]
        return (object?["type"] as? String)?.hasPrefix("http") == true
    }

    private static func replacingPayload(in value: Any) -> Any {
        switch value {
        case let object as [String: Any]: Dictionary(uniqueKeysWithValues: object.map { ($0.key, replacingPayload(in: $0.value)) })
        case let array as [Any]: array.map(replacingPayload(in:))
        case let text as String where text == payload: markedPayload
        default: value
        }
    }

    /// Escaping that compares whole characters (`replacingOccurrences`, as the QR code's accessible name once was)
    /// lets each of these through; the page is searched byte by byte, as a browser's parser reads it.
    @Test(
        "a quote, bracket or ampersand joined by a combining mark is escaped in every upstream string the page shows, the QR code's accessible name included",
        arguments: SampleRenderingTests.samples
    )
    func combiningMarksInEveryString(_ sample: URL) throws {
        let html = try renderer.render(json: try Self.markedEverywhere(sample))
        let bytes = Array(html.utf8)
        let mark: [UInt8] = [0xCC, 0x81]
        for special in ["\"", "<", ">", "&"] {
            let raw = Array(special.utf8) + mark
            let found = bytes.indices.contains { bytes[$0...].starts(with: raw) }
            #expect(!found, "\(special) joined by a combining mark reached the page unescaped (\(sample.lastPathComponent))")
        }
        // A step draws its activation link as a QR code (a problem's page shows its links as links).
        if !Self.isProblem(sample) {
            #expect(html.contains("aria-label=\"x&quot;\u{301}&lt;\u{301}&gt;\u{301}&amp;\u{301} onfocus=alert(1) y\""), "the QR code's name")
        }
    }

    /// Inputs `FuzzStepRenderer` reported as slow (a long `activation` link: the QR mask penalty, since made one pass).
    static var fuzzFindings: [URL] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz-findings")
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []).sorted { $0.path < $1.path }
    }

    @Test("the renderer fuzz target's findings are there to render")
    func fuzzFindingsExist() {
        #expect(Self.fuzzFindings.count >= 3)
    }

    @Test("steps the renderer fuzz target found slow render with one heading and their QR code", arguments: fuzzFindings)
    func fuzzFindingsRender(_ input: URL) throws {
        let html = try renderer.render(json: try Data(contentsOf: input))
        #expect(html.components(separatedBy: "<h1").count == 2)
        #expect(html.contains("<figure class=\"qr\">"))
    }

    @Test("deep nesting, wrong types, huge strings and truncated documents are refused or rendered, never a crash")
    func brokenDocuments() throws {
        let huge = String(repeating: "<b>x</b>", count: 200_000)
        let documents: [String] = [
            String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
            String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000),
            #"{"type":"authentication-step","actions":"not a list","messages":5,"links":{"a":1}}"#,
            #"{"type":"authentication-step","actions":[{"template":7,"kind":[],"model":{"fields":[{"name":7,"type":null}]}}]}"#,
            #"{"type":"authentication-step","actions":[{"template":"form","model":{"href":"/x","method":"POST","fields":"x"}}]}"#,
            #"{"type":42}"#, #"{"type":null}"#, "[]", "null", "\"text\"", "", "{", #"{"type":"authentication-step","actions":[{"#,
            #"{"type":"authentication-step","messages":[{"text":"\#(huge)"}],"actions":[]}"#,
            #"{"type":"https://curity.se/problems/x","title":"\#(huge)"}"#,
            "<html><body>502 Bad Gateway</body></html>",
        ]
        for document in documents {
            do {
                let html = try renderer.render(json: Data(document.utf8))
                #expect(html.hasPrefix("<!DOCTYPE html>"))
                #expect(!html.contains("<b>x</b>"))
            } catch {
                #expect(error is HAAPIError, "\(document.prefix(40)): \(type(of: error))")
            }
        }
    }
}
