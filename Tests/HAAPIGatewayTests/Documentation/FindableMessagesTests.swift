import Foundation
import Testing

@testable import GatewayTestSupport

/// Every sentence a person or an operator reads (a log message, an error, help text, doctor output, a page's text outside
/// the templates) is written in one string literal on one line of `Sources/` (CONTRIBUTING.md, "Formatting"), so that
/// searching the sources for what was seen finds where it comes from: no `\` continuation inside a sentence, no literal
/// joined to another with `+` across a line break, and no line over 150 columns unless what lies beyond is in one literal.
@Suite("Messages that can be found")
struct FindableMessagesTests {
    /// The columns a line of code may take; a string literal may go beyond.
    static let columns = 150

    enum Rule: String {
        case continuation = "a \\ continuation inside a sentence"
        case concatenation = "a string literal joined with + across a line break"
        case width = "over 150 columns beyond a string literal"
    }

    /// The lines of `text` that break the rule, with the part broken.
    static func offences(in text: String) -> [(line: Int, rule: Rule)] {
        let scan = SwiftLiteralScan(text)
        var starts = [0]
        for (position, scalar) in scan.scalars.enumerated() where scalar == "\n" { starts.append(position + 1) }
        let lines = starts.indices.map { starts[$0]..<(($0 + 1 < starts.count ? starts[$0 + 1] - 1 : scan.scalars.count)) }
        func line(of position: Int) -> Int { starts.lastIndex { $0 <= position } ?? 0 }
        var found: [(line: Int, rule: Rule)] = []
        for continuation in scan.continuations where !endsSentence(scan.scalars[lines[line(of: continuation)].lowerBound..<continuation]) {
            found.append((line(of: continuation) + 1, .continuation))
        }
        for number in lines.indices.dropLast() where joinsLiterals(scan, lines[number], lines[number + 1]) {
            found.append((number + 1, .concatenation))
        }
        for (number, range) in lines.enumerated() where range.count > columns && !beyondIsLiteral(scan, range) {
            found.append((number + 1, .width))
        }
        return found.sorted { $0.line < $1.line }
    }

    /// Whether the text before a continuation ends a sentence: `.`, `:`, `?` or `!`, then perhaps a closing quote or bracket.
    static func endsSentence(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        var text = text
        while let last = text.last, last.properties.isWhitespace { text = text.dropLast() }
        while let last = text.last, "\"')]`’”".unicodeScalars.contains(last) { text = text.dropLast() }
        return text.last.map { ".:?!".unicodeScalars.contains($0) } ?? false
    }

    /// Whether a `+` at the end of `first` or at the start of `second` joins a string literal to what is across the break.
    static func joinsLiterals(_ scan: SwiftLiteralScan, _ first: Range<Int>, _ second: Range<Int>) -> Bool {
        func tokens(_ range: Range<Int>) -> [Int] {
            range.filter { scan.places[$0] != .comment && !scan.scalars[$0].properties.isWhitespace }
        }
        // A line break inside a multi-line literal joins nothing.
        guard first.upperBound < scan.places.count, scan.places[first.upperBound] == .code,
            scan.scalars[first].contains("+") || scan.scalars[second].contains("+")
        else { return false }
        let before = tokens(first)
        let after = tokens(second)
        guard let last = before.last, let next = after.first else { return false }
        func isLiteral(_ position: Int?) -> Bool { position.map { scan.places[$0] != .code && scan.places[$0] != .comment } ?? false }
        if scan.scalars[last] == "+", scan.places[last] == .code {
            return isLiteral(before.dropLast().last) || isLiteral(next)
        }
        if scan.scalars[next] == "+", scan.places[next] == .code, after.count < 2 || scan.scalars[after[1]] != "=" {
            return isLiteral(last) || isLiteral(after.dropFirst().first)
        }
        return false
    }

    /// Whether what lies beyond `columns` on a line is inside one string literal, followed at most by closing brackets,
    /// commas or semicolons.
    static func beyondIsLiteral(_ scan: SwiftLiteralScan, _ line: Range<Int>) -> Bool {
        let first = line.lowerBound + columns
        let closers = ")]},; ".unicodeScalars
        // The closing brackets that end the line, then the literal they close (its quotes are the literal's).
        var end = line.upperBound
        while end > line.lowerBound, scan.places[end - 1] == .code, closers.contains(scan.scalars[end - 1]) { end -= 1 }
        guard end > line.lowerBound, case .literal(let literal) = scan.places[end - 1] else { return false }
        return (min(first, end)..<end).allSatisfy { scan.places[$0] == .literal(literal) }
    }

    @Test("every Swift file of Sources/ keeps each sentence in one literal on one line, and its code within 150 columns")
    func sourcesKeepTheRule() throws {
        let sources = try Repository.swiftSources(under: "Sources")
        var broken: [String] = []
        for (path, text) in sources {
            let relative = String(path.dropFirst(Repository.root.path.count + 1))
            broken += Self.offences(in: text).map { "\(relative):\($0.line) \($0.rule.rawValue)" }
        }
        #expect(sources.count > 300, "Sources/ was read: \(sources.count) files")
        #expect(broken.isEmpty, "\(broken.count) lines break the rule:\n\(broken.sorted().joined(separator: "\n"))")
    }

    @Test("a continuation inside a sentence is found; one after a sentence, an escaped backslash and a single line are not")
    func theContinuationCheckCanFail() {
        let q = "\"\"\""
        let inside = "let a = \(q)\n    one sentence \\\n    goes on\n    \(q)\n"
        #expect(Self.offences(in: inside).map(\.rule) == [.continuation])
        #expect(Self.offences(in: inside).first?.line == 2)
        let between = "let a = \(q)\n    One sentence. \\\n    (Another: \\\n    \\(b).) \\\n    The last\n    \(q)\n"
        #expect(Self.offences(in: between).isEmpty)
        let backslash = "let a = \(q)\n    a path ends in \\\\\n    \(q)\nlet b = \"one \\\\\" // \\\n"
        #expect(Self.offences(in: backslash).isEmpty)
        let raw = "let a = #\(q)\n    a raw \\\n    backslash, and one \\#\n    continuation\n    \(q)#\n"
        #expect(Self.offences(in: raw).map(\.line) == [3])
    }

    @Test("a literal joined with + across a line break is found, on either side; code and one line are not")
    func theConcatenationCheckCanFail() {
        #expect(Self.offences(in: "let a = \"one\"\n    + \"two\"\n").map(\.rule) == [.concatenation])
        #expect(Self.offences(in: "let a = b\n    + \"two\"\n").map(\.line) == [1])
        #expect(Self.offences(in: "let a = \"one\" +\n    b\n").map(\.line) == [1])
        #expect(Self.offences(in: "let a = \"\\(b)\"\n    + c // \"\n").map(\.line) == [1])
        #expect(Self.offences(in: "let a = b\n    + c\nlet d = \"one\" + \"two\"\ne\n    += \"three\"\n").isEmpty)
        #expect(Self.offences(in: "let a = \"\"\"\n    one +\n    two\n    \"\"\"\n").isEmpty)
    }

    @Test("code or a comment beyond 150 columns is found; a literal beyond them, closed by brackets, is not")
    func theWidthCheckCanFail() {
        let indent = String(repeating: " ", count: 140)
        let long = String(repeating: "word ", count: 10)
        #expect(Self.offences(in: "\(indent)call(\(long)a, b)\n").map(\.rule) == [.width])
        #expect(Self.offences(in: "\(indent)// \(long)\n").map(\.rule) == [.width])
        #expect(Self.offences(in: "\(indent)call(\"\(long)\" + x)\n").map(\.rule) == [.width])
        #expect(Self.offences(in: "\(indent)call(\"\(long)\\(x) \(long)\"),\n").isEmpty)
        #expect(Self.offences(in: "\"\"\"\n\(indent)\(long)\n\"\"\"\n").isEmpty)
        // A literal that ends at the 150th column, only its brackets beyond: still one literal and its call's end.
        let upTo150 = String(repeating: " ", count: 150 - 10) + "f(\"abcdef\"))"
        #expect(upTo150.count == 152)
        #expect(Self.offences(in: upTo150 + "\n").isEmpty)
        let codeAt150 = String(repeating: " ", count: 140) + "f(abcdefgh, x))\n"
        #expect(Self.offences(in: codeAt150).map(\.rule) == [.width], "code, not a literal, ends there")
    }
}
