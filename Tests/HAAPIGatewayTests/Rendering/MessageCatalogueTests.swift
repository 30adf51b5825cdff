import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

@Suite("Message catalogue and languages")
struct MessageCatalogueTests {
    private static let catalogue = try! TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory)).messages

    @Test("the shipped catalogues: English complete, Swedish complete, nothing unknown")
    func shippedCatalogues() {
        #expect(Self.catalogue.languages == ["en", "sv"])
        for key in MessageKey.allCases {
            #expect(Self.catalogue.texts["en"]?[key.rawValue] != nil, "en lacks \(key)")
            #expect(Self.catalogue.texts["sv"]?[key.rawValue] != nil, "sv lacks \(key)")
        }
    }

    @Test(
        "Accept-Language picks the best available language by quality, then order; a region matches its language",
        arguments: [
            (nil, "en"), ("sv", "sv"), ("sv-SE,sv;q=0.9,en;q=0.8", "sv"), ("de-DE,de;q=0.9", "en"), ("de, sv;q=0.5, en;q=0.4", "sv"),
            ("en;q=0.5, sv;q=0.6", "sv"), ("sv;q=0, en", "en"), ("*", "en"), ("SV", "sv"), ("garbage;;;q=x,,", "en"),
        ] as [(String?, String)]
    )
    func negotiation(header: String?, expected: String) {
        #expect(Self.catalogue.language(for: header) == expected)
    }

    @Test("placeholders are filled; a key missing in a language falls back to English")
    func placeholdersAndFallback() throws {
        let catalogue = try MessageCatalogue(texts: [
            "en": Dictionary(uniqueKeysWithValues: MessageKey.allCases.map { ($0.rawValue, "EN \($0.rawValue) {field}") }),
            "de": ["requiredField": "{field} ist erforderlich."],
        ])
        #expect(catalogue.text(.requiredField, language: "de", arguments: ["field": "Name"]) == "Name ist erforderlich.")
        #expect(catalogue.text(.startAgain, language: "de") == "EN startAgain {field}")
        #expect(catalogue.text(.upstream("<as sent>"), language: "de") == "<as sent>")
    }

    @Test("an incomplete English catalogue or an unknown key stops startup, naming them")
    func validation() {
        #expect(throws: GatewayError.self) { try MessageCatalogue(texts: ["en": ["startAgain": "x"]]) }
        do {
            var english = Dictionary(uniqueKeysWithValues: MessageKey.allCases.map { ($0.rawValue, "x") })
            english["startAgian"] = "typo"
            _ = try MessageCatalogue(texts: ["en": english])
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("messages/en.json has unknown keys startAgian"))
        }
    }

    @Test("an override directory adds a language and replaces single texts, key by key")
    func overrides() throws {
        let overrides = FileManager.default.temporaryDirectory.appendingPathComponent("messages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: overrides.appendingPathComponent("messages"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: overrides) }
        try #"{"startAgain": "Begin anew"}"#.write(to: overrides.appendingPathComponent("messages/en.json"), atomically: true, encoding: .utf8)
        try #"{"startAgain": "Neu beginnen"}"#.write(to: overrides.appendingPathComponent("messages/de.json"), atomically: true, encoding: .utf8)
        let catalogue = try TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory, overrideDirectory: overrides))
            .messages
        #expect(catalogue.text(.startAgain, language: "en") == "Begin anew")
        #expect(catalogue.text(.tryAgain, language: "en") == "Try again")
        #expect(catalogue.text(.startAgain, language: "de") == "Neu beginnen")
        #expect(catalogue.language(for: "de-AT") == "de")
        try "not json".write(to: overrides.appendingPathComponent("messages/fr.json"), atomically: true, encoding: .utf8)
        #expect(throws: GatewayError.self) {
            try TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory, overrideDirectory: overrides))
        }
    }

    @Test("render --locale sv: the gateway's texts in Swedish, lang set, the upstream's texts as sent")
    func renderInSwedish() throws {
        let renderer = try StepRenderer(templates: TemplateSettings(directory: GatewayHarness.templatesDirectory))
        let step = try Representation(json: [
            "type": "authentication-step",
            "actions": [
                [
                    "template": "form", "kind": "login", "title": "Login",
                    "model": ["href": "/x", "method": "POST", "fields": [["name": "u", "type": "username"]]],
                ]
            ],
            "messages": [["text": "Upstream text"]],
        ])
        let html = renderer.render(step, locale: "sv")
        #expect(html.contains(#"<html lang="sv">"#))
        #expect(html.contains("Avbryt inloggningen"))
        #expect(html.contains("Upstream text"))
        #expect(!html.contains("Cancel sign-in"))
    }

    @Test("a browser asking for Swedish gets the gateway's pages in Swedish")
    func swedishBrowser() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            browser.prefer(languages: "sv-SE, sv;q=0.9")
            let selector = try await browser.get("/")
            #expect(selector.html.contains(#"<html lang="sv">"#))
            #expect(selector.html.contains("Avbryt inloggningen"))
            let confirm = try await browser.submit(try selector.form(button: "Avbryt inloggningen"))
            #expect(confirm.html.contains("Vill du avbryta inloggningen?"))
        }
    }
}
