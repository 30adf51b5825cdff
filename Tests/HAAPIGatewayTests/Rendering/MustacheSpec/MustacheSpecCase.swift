import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway

/// One test of the official Mustache specification (`tests` in one of its JSON files): a template, its partials, the
/// data it renders and the output the spec expects. Reported by file and name (`partials.json: Standalone Indentation`).
struct MustacheSpecCase: Sendable, CustomTestStringConvertible {
    /// The spec file's name without `.json` (`interpolation`, `~inheritance`).
    let file: String
    let name: String
    let template: String
    /// Partials by name.
    let partials: [String: String]
    /// The spec's JSON data as the engine's context value (see ``TemplateValue/init(json:)``).
    let data: TemplateValue
    let expected: String

    var testDescription: String { "\(file).json: \(name)" }

    /// The cases of one spec file.
    /// - Throws: ``MustacheSpecFileError`` when the file cannot be read, is not JSON or is not shaped as the spec's files are.
    static func load(file: String, directory: URL) throws(MustacheSpecFileError) -> [MustacheSpecCase] {
        let url = directory.appendingPathComponent("\(file).json")
        let json: JSONValue
        do {
            json = try JSONValue.parse(try Data(contentsOf: url))
        } catch {
            throw MustacheSpecFileError(file: url.path, reason: "\(error)")
        }
        guard let tests = json["tests"]?.arrayValue else { throw MustacheSpecFileError(file: url.path, reason: "no `tests` list") }
        var cases: [MustacheSpecCase] = []
        for (index, test) in tests.enumerated() {
            guard let name = test["name"]?.stringValue, let template = test["template"]?.stringValue, let expected = test["expected"]?.stringValue,
                let data = test["data"]
            else {
                throw MustacheSpecFileError(file: url.path, reason: "test \(index) lacks a name, template, data or expected output")
            }
            var partials: [String: String] = [:]
            for (partial, source) in test["partials"]?.objectValue ?? [:] {
                guard let source = source.stringValue else {
                    throw MustacheSpecFileError(file: url.path, reason: "\(name): partial \(partial) is not text")
                }
                partials[partial] = source
            }
            cases.append(
                MustacheSpecCase(file: file, name: name, template: template, partials: partials, data: TemplateValue(json: data), expected: expected)
            )
        }
        return cases
    }

    /// Compiles the template and its partials and renders the template with the data.
    func render() throws(TemplateSyntaxError) -> String {
        var templates: [String: [TemplateNode]] = [:]
        for (name, source) in partials { templates[name] = try TemplateParser.parse(source) }
        let nodes = try TemplateParser.parse(template)
        return String(decoding: TemplateSet(templates).render(nodes, context: data), as: UTF8.self)
    }
}
