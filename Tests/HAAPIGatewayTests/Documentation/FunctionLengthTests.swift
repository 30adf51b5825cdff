import Foundation
import Testing

@testable import GatewayTestSupport

/// No function or initialiser in `Sources/` is longer than 80 lines (CONTRIBUTING.md, "Code"): change stays in one
/// place, named by the function it is in. A longer one is named here with its reason, as CONTRIBUTING asks.
@Suite("No function in Sources over 80 lines")
struct FunctionLengthTests {
    /// The most lines a function's declaration and body may take.
    static let limit = 80
    /// Functions allowed beyond the limit, by file and first line, each with its reason; none today.
    static let exceptions: [String: String] = [:]

    /// Each function or initialiser of `text` with more than `limit` lines: its first line's number, its first line and
    /// its length. Its body is the first brace outside parentheses after its first line: a default closure among its
    /// parameters (`onRunning: … = { _ in }`) is not its body. Braces in string literals (multi-line ones too), in
    /// comments and inside parentheses or brackets are not counted.
    static func longFunctions(in text: String, limit: Int) throws -> [(line: Int, declaration: String, length: Int)] {
        let lines = text.components(separatedBy: "\n")
        let code = codeOnly(lines)
        let modifiers = "public|package|private|fileprivate|internal|static|nonisolated|override|mutating|final|convenience|required"
        let declaration = try Regex(#"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:\#(modifiers))\s+)*(?:func|init)\b"#)
        var found: [(Int, String, Int)] = []
        for (index, line) in lines.enumerated() where line.firstMatch(of: declaration) != nil {
            var depth = 0
            var parentheses = 0
            var opened = false
            var end = index
            scan: while end < code.count {
                for character in code[end] {
                    switch character {
                    case "(", "[": parentheses += 1
                    case ")", "]": parentheses -= 1
                    case "{" where parentheses == 0:
                        depth += 1
                        opened = true
                    case "}" where parentheses == 0: depth -= 1
                    default: break
                    }
                    if opened, depth == 0 { break scan }
                }
                // A protocol requirement has no body.
                if !opened, end > index + 25 { break }
                end += 1
            }
            if opened, end - index + 1 > limit { found.append((index + 1, line.trimmingCharacters(in: .whitespaces), end - index + 1)) }
        }
        return found
    }

    /// `lines` with string literals (single- and multi-line) and comments blanked out, line for line.
    static func codeOnly(_ lines: [String]) -> [String] {
        var inMultiLineString = false
        return lines.map { line in
            var rest = Substring(line)
            if inMultiLineString {
                guard let close = rest.range(of: "\"\"\"") else { return "" }
                rest = rest[close.upperBound...]
                inMultiLineString = false
            }
            var code = String(rest)
            // A multi-line literal opened on this line (and closed on it, or not): what follows its quotes is not code.
            if let open = code.range(of: "\"\"\"") {
                let after = code[open.upperBound...]
                if let close = after.range(of: "\"\"\"") {
                    code = String(code[..<open.lowerBound]) + String(after[close.upperBound...])
                } else {
                    code = String(code[..<open.lowerBound])
                    inMultiLineString = true
                }
            }
            code = code.replacing(/"(?:\\.|[^"\\])*"/, with: "")
            return code.replacing(/\/\/.*$/, with: "")
        }
    }

    @Test("every function and initialiser of Sources/ is at most 80 lines, or named as an exception with its reason")
    func noLongFunctions() throws {
        let sources = Repository.root.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var long: [String] = []
        var files = 0
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            files += 1
            let relative = String(url.path.dropFirst(Repository.root.path.count + 1))
            for function in try Self.longFunctions(in: try String(contentsOf: url, encoding: .utf8), limit: Self.limit)
            where Self.exceptions["\(relative): \(function.declaration)"] == nil {
                long.append("\(relative):\(function.line) \(function.length) lines: \(function.declaration)")
            }
        }
        #expect(files > 300, "Sources/ was read: \(files) files")
        #expect(long.isEmpty, "over \(Self.limit) lines: \(long.joined(separator: "; "))")
    }

    @Test("the count finds a long function, and not a short one, a protocol requirement or braces in strings")
    func theCountCanFail() throws {
        let body = (0..<85).map { "        let x\($0) = \"{\" // }" }.joined(separator: "\n")
        let long = "struct S {\n    func long() {\n\(body)\n    }\n    func short() { }\n}\nprotocol P {\n    func requirement()\n}\n"
        let found = try Self.longFunctions(in: long, limit: Self.limit)
        #expect(found.count == 1)
        #expect(found.first?.declaration == "func long() {")
        #expect(found.first?.length == 87)
    }

    @Test("a default closure among the parameters is not the body, and braces in a multi-line string are not counted")
    func defaultClosuresAndMultiLineStrings() throws {
        let body = (0..<85).map { "        let x\($0) = 1" }.joined(separator: "\n")
        let quotes = "\"\"\""
        let text = """
            struct S {
                static func make(
                    onRunning: @escaping () -> Void = { },
                    onOutcome: (() -> Void)? = nil
                ) -> Int {
                    let text = \(quotes)
                        } } {
                        \(quotes)
            \(body)
                    return 1
                }
            }
            """
        let found = try Self.longFunctions(in: text, limit: Self.limit)
        #expect(found.map(\.declaration) == ["static func make("])
        #expect(found.first?.length == 94)
    }
}
