import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway

/// Nothing the upstream sends may silently vanish from the page: for every public sample, every title, `actionTitle`,
/// label, option, message, link and invalid-field detail it carries is on the page `render` makes of it.
@Suite("Every text of every sample is on its page")
struct SampleCompletenessTests {
    let renderer: StepRenderer

    init() throws {
        renderer = try StepRenderer(templates: TemplateSettings(directory: GatewayHarness.templatesDirectory))
    }

    /// The texts a person must be able to read in `json`, as the upstream sent them.
    static func texts(in json: JSONValue) -> [String] {
        var texts: [String] = []
        if let title = json["title"]?.stringValue { texts.append(title) }
        for message in json["messages"]?.arrayValue ?? [] { texts += message["text"]?.scalarText.map { [$0] } ?? [] }
        for link in json["links"]?.arrayValue ?? [] { texts.append(link["title"]?.stringValue ?? link["rel"]?.stringValue ?? "") }
        for field in json["invalidFields"]?.arrayValue ?? [] { texts += (field["detail"] ?? field["reason"])?.stringValue.map { [$0] } ?? [] }
        for action in json["actions"]?.arrayValue ?? [] { texts += actionTexts(action) }
        return texts.filter { !$0.isEmpty }
    }

    static func actionTexts(_ action: JSONValue) -> [String] {
        var texts: [String] = []
        if let title = action["title"]?.stringValue { texts.append(title) }
        let model = action["model"]
        for key in ["actionTitle", "title"] { texts += model?[key]?.stringValue.map { [$0] } ?? [] }
        for field in model?["fields"]?.arrayValue ?? [] where field["type"]?.stringValue != "hidden" {
            texts += field["label"]?.stringValue.map { [$0] } ?? []
            for option in field["options"]?.arrayValue ?? [] { texts += option["label"]?.stringValue.map { [$0] } ?? [] }
        }
        for key in ["options", "continueActions", "errorActions"] {
            for nested in model?[key]?.arrayValue ?? [] { texts += actionTexts(nested) }
        }
        return texts
    }

    @Test("every sample's texts are on its page", arguments: SampleRenderingTests.samples)
    func everyTextIsShown(_ sample: URL) throws {
        let data = try Data(contentsOf: sample)
        let json = try JSONValue.parse(data)
        let html = try renderer.render(json: data)
        let missing = Self.texts(in: json).filter { !html.contains(HTMLEscaping.escape($0)) }
        #expect(missing.isEmpty, "\(sample.lastPathComponent): not on the page: \(missing)")
    }

    @Test("the walk finds the texts it is meant to find")
    func walkFindsTexts() throws {
        let json = try JSONValue.parse(
            Data(
                #"{"type":"x","title":"T","messages":[{"text":"M"}],"links":[{"href":"/a","rel":"r"},{"href":"/b","rel":"s","title":"L"}],"invalidFields":[{"name":"n","detail":"D"}],"actions":[{"template":"selector","title":"S","model":{"options":[{"template":"form","title":"O","model":{"href":"/f","method":"POST","actionTitle":"A","fields":[{"name":"h","type":"hidden","label":"H"},{"name":"c","type":"select","label":"C","options":[{"label":"P","value":"p"}]}],"continueActions":[{"template":"form","title":"K","model":{"href":"/k","method":"POST"}}]}}]}}]}"#
                    .utf8
            )
        )
        #expect(Self.texts(in: json) == ["T", "M", "r", "L", "D", "S", "O", "A", "C", "P", "K"])
    }
}
