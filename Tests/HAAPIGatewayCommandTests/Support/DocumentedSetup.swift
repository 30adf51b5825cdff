import Foundation
import Testing

@testable import GatewayTestSupport

/// The setup lines `docs/headless-and-devices.md` gives a person, read from it so that the tests run what it says.
enum DocumentedSetup {
    /// The first fenced block of `language` under the heading `heading` (a whole line, `### git`), before the next
    /// heading: its text without the fences.
    static func block(under heading: String, language: String) throws -> String {
        let document = try String(contentsOf: Repository.root.appendingPathComponent("docs/headless-and-devices.md"), encoding: .utf8)
        let section = try #require(document.range(of: "\n" + heading + "\n"), "docs/headless-and-devices.md has no heading \(heading)")
        let next = document.range(of: "\n##", range: section.upperBound..<document.endIndex)?.lowerBound ?? document.endIndex
        let start = try #require(
            document.range(of: "```" + language + "\n", range: section.upperBound..<next),
            "no \(language) block under \(heading)"
        )
        let end = try #require(document.range(of: "\n```", range: start.upperBound..<next))
        return String(document[start.upperBound..<end.lowerBound])
    }
}
