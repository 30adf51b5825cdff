import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// A setting is declared once, as a constant of ``ConfigurationKey`` (its environment variable, flag, range, summary and
/// reference come from there), and the sources name it only by that constant: ``ConfigurationReader`` takes a key, not a
/// path, so a setting that is not declared cannot be read, and a path written out again as text (a flag's key, a
/// message) could drift from the declaration unseen. Tests may write paths: they are what people type. A literal of a
/// tracing file that is a name on its own is a span attribute's (OpenTelemetry's `server.port`), not a setting's.
@Suite("Configuration keys are declared once")
struct DeclaredKeysTests {
    @Test("a declared path is written as text in Sources only in its declaration, and no environment variable's name is")
    func pathsAreWrittenOnce() throws {
        var places: [String: [String]] = [:]
        for (file, text) in try Repository.swiftSources(under: "Sources") {
            let name = file.hasPrefix(Repository.root.path) ? String(file.dropFirst(Repository.root.path.count + 1)) : file
            for segment in SwiftStringLiterals.segments(in: text) {
                for written in Self.declaredNames(in: segment.text) {
                    // A span attribute's name, which OpenTelemetry's conventions give (`server.port` of a client span).
                    if name.contains("/Tracing/"), segment.text == written { continue }
                    places[written, default: []].append("\(name):\(segment.line)")
                }
            }
        }
        for key in ConfigurationKey.all {
            let (declarations, elsewhere) = (places[key.path] ?? []).reduce(into: ([String](), [String]())) { split, place in
                if place.contains("/Configuration/Loading/ConfigurationKey+") { split.0.append(place) } else { split.1.append(place) }
            }
            #expect(declarations.count == 1, "\(key.path) is declared \(declarations.count) times: \(declarations)")
            #expect(elsewhere.isEmpty, "\(key.path) is written outside its declaration: \(elsewhere)")
            #expect(places[key.environmentName] == nil, "\(key.environmentName) is written at \(places[key.environmentName] ?? [])")
        }
    }

    @Test("the scan finds text in every kind of literal and in interpolations, and skips comments and interpolated code")
    func scanFindsEveryLiteral() {
        let source = ##"""
            // "in a comment"
            /* "in a /* nested */ comment" */
            let plain = "plain \(value("nested")) after"
            let raw = #"raw \(not interpolated) "quoted" \#(interpolated) end"#
            let multi = """
                first line \
                second "line"
                """
            let escaped = "a \" quote and a \\(backslash)"
            """##
        let texts = SwiftStringLiterals.segments(in: source).map(\.text)
        #expect(
            texts == [
                "plain ", "nested", " after", #"raw \(not interpolated) "quoted" "#, " end",
                "\n    first line \\\n    second \"line\"\n    ", #"a \" quote and a \\(backslash)"#,
            ]
        )
        #expect(SwiftStringLiterals.segments(in: source).map(\.line) == [3, 3, 3, 4, 4, 5, 9])
    }

    @Test("a path is found as a whole word: not inside a longer path or name")
    func pathsAreWholeWords() {
        let both = Self.declaredNames(in: "set upstream.clientSecretFile, not upstream.clientSecret.")
        #expect(Set(both) == ["upstream.clientSecretFile", "upstream.clientSecret"])
        #expect(Self.declaredNames(in: "x.server.port server.portal HAAPI_GATEWAY_SERVER_PORTS").isEmpty)
        #expect(Self.declaredNames(in: "(HAAPI_GATEWAY_SERVER_PORT)") == ["HAAPI_GATEWAY_SERVER_PORT"])
    }

    /// The declared paths and environment variables written in `text`, each as a whole word.
    private static func declaredNames(in text: String) -> [String] {
        guard text.contains(".") || text.contains("HAAPI_GATEWAY_") else { return [] }
        return ConfigurationKey.all.flatMap { [$0.path, $0.environmentName] }.filter { name in
            var searched = text.startIndex..<text.endIndex
            while let found = text.range(of: name, range: searched) {
                let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
                let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
                let isWordCharacter = { (character: Character?) in character.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
                if !isWordCharacter(before), before != ".", !isWordCharacter(after) { return true }
                searched = found.upperBound..<text.endIndex
            }
            return false
        }
    }
}
