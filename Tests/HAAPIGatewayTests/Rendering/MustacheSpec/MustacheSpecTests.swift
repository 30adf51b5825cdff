import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// The engine against the official Mustache specification (read from `../shared/mustache-spec`, see ``MustacheSpec``):
/// every case of the required modules renders as the spec expects; the optional inheritance and dynamic-names tags are
/// refused with their line when a template compiles. Lambdas cannot occur: contexts are data (``TemplateValue``).
@Suite("Mustache specification")
struct MustacheSpecTests {
    static let requiredCases = MustacheSpec.casesOrNone(in: MustacheSpec.requiredFiles)
    static let refusedCases = MustacheSpec.casesOrNone(in: MustacheSpec.refusedFiles)

    private static let skipReason: Comment = "needs the Mustache spec in ../shared/mustache-spec beside the repository"

    @Test(
        "the spec's files are there: 136 cases of the required modules, 48 of inheritance and dynamic names",
        .enabled(if: MustacheSpec.shouldRun, skipReason)
    )
    func specFilesLoad() throws {
        let required = try MustacheSpec.cases(in: MustacheSpec.requiredFiles)
        let counts = Dictionary(grouping: required, by: \.file).mapValues(\.count)
        #expect(counts == ["interpolation": 42, "sections": 34, "inverted": 22, "comments": 12, "partials": 12, "delimiters": 14])
        #expect(try MustacheSpec.cases(in: MustacheSpec.refusedFiles).count == 48)
    }

    @Test(
        "every case of the required modules renders what the spec expects",
        .enabled(if: MustacheSpec.shouldRun, skipReason),
        arguments: requiredCases
    )
    func requiredCase(_ specCase: MustacheSpecCase) throws {
        let output = try specCase.render()
        #expect(
            output == specCase.expected,
            "\(specCase.testDescription)\ntemplate: \(specCase.template.debugDescription)\npartials: \(specCase.partials)"
        )
    }

    @Test(
        "each template or partial of the inheritance and dynamic-names modules using their tags is refused at its line; the others compile",
        .enabled(if: MustacheSpec.shouldRun, skipReason),
        arguments: refusedCases
    )
    func optionalModuleIsRefused(_ specCase: MustacheSpecCase) throws {
        #expect(Self.firstOptionalTag(in: specCase.template) != nil, "every case's template uses the module")
        for (role, source) in [("template", specCase.template)]
            + specCase.partials.sorted(by: { $0.key < $1.key }).map({ ("partial \($0.key)", $0.value) })
        {
            let tag = Self.firstOptionalTag(in: source)
            do {
                _ = try TemplateParser.parse(source)
                #expect(tag == nil, "\(role) \(source.debugDescription) compiled")
            } catch {
                guard let tag else {
                    Issue.record("\(role) \(source.debugDescription) refused without using the module: \(error)")
                    continue
                }
                #expect(error.line == tag.line, "\(role) \(source.debugDescription)")
                #expect(error.reason.contains(tag.isDynamicName ? "dynamic names" : "inheritance"), "\(role): \(error.reason)")
            }
        }
    }

    /// The line of the first `{{<`, `{{$` or `{{>*` (found here independently of the parser), and whether it is a dynamic name.
    private static func firstOptionalTag(in source: String) -> (line: Int, isDynamicName: Bool)? {
        guard let match = source.firstMatch(of: /\{\{(?:[<$]|>\s*\*)/) else { return nil }
        let line = 1 + source[..<match.range.lowerBound].utf8.count { $0 == UInt8(ascii: "\n") }
        return (line, match.output.hasPrefix("{{>"))
    }
}
