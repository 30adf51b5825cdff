import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// A setting is declared once (``ConfigurationKey/all``: its environment variable, flag, range, summary and reference
/// come from there) and read only by that declaration's path: a path read but not declared would silently have none of
/// them. The reader asserts it for every path it is asked (the tests load configurations of every kind); this finds
/// every path the sources name to the reader, including the branches no test configuration takes.
@Suite("Configuration keys are declared once")
struct DeclaredKeysTests {
    @Test("every key path the configuration's sources read or test for is declared in ConfigurationKey.all")
    func everyPathReadIsDeclared() throws {
        let accessors = "string|list|records|isSet|integer|boolean|booleanOrDefault|stringOrDefault|httpURL|filePath|fileContents|secret|secretFile"
        let read = try NSRegularExpression(pattern: #"reader\.(?:\#(accessors))\("([^"\\]+)""#)
        var paths: Set<String> = []
        for (_, text) in try Repository.swiftSources(under: "Sources/HAAPIGateway") {
            for match in read.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { paths.insert(String(text[range])) }
            }
        }
        #expect(paths.count > 60, "the sources read \(paths.count) literal paths: the pattern no longer finds them")
        let undeclared = paths.filter { ConfigurationKey.byPath[$0] == nil }.sorted()
        #expect(undeclared.isEmpty, "read but not declared: \(undeclared)")
    }
}
