import Foundation

/// Compiles Mustache source (<https://mustache.github.io/mustache.5.html>) into ``TemplateNode``s: variables (escaped,
/// `{{{…}}}` and `{{&…}}` as they are), sections, inverted sections, comments, partials, set delimiters and
/// standalone lines (a line holding only a section, comment, partial or delimiter tag is left out of the output): the
/// required modules of the Mustache specification. Its optional modules are refused with the line they are on: template
/// inheritance (`{{<parent}}`, `{{$block}}`) and dynamic names (`{{>*name}}`); lambdas cannot occur, as contexts are
/// data (``TemplateValue``). Pragmas and other engines' transforms are refused too.
struct TemplateParser {
    /// Sections nest at most this deep (rendering follows the nesting).
    static let maximumNesting = 64

    private let source: [UInt8]
    private var opening = Array("{{".utf8)
    private var closing = Array("}}".utf8)

    private enum TagKind: Equatable {
        case variable, unescaped, section, inverted, close, comment, partial, delimiters

        /// Tags that leave no trace of their line when it holds nothing else.
        var canStandAlone: Bool { self != .variable && self != .unescaped }
    }

    private struct Token {
        enum Kind {
            case text
            case tag(TagKind, String)
        }
        let kind: Kind
        /// The token's bytes in the source (a tag's with its delimiters); text tokens shrink around standalone tags.
        var range: Range<Int>
        let line: Int
        /// A standalone partial's indentation, put in front of each of its lines.
        var indentation = ""
    }

    private init(source: String) {
        self.source = Array(source.utf8)
    }

    /// - Throws: ``TemplateSyntaxError`` for an unclosed tag or section, a mismatched closing tag, a name that is not one,
    ///   or a feature this engine does not have.
    static func parse(_ source: String) throws(TemplateSyntaxError) -> [TemplateNode] {
        var parser = TemplateParser(source: source)
        var tokens = try parser.tokens()
        let removedLines = parser.removeStandaloneLines(&tokens)
        return try parser.tree(of: tokens, removedLines: removedLines)
    }

    private mutating func tokens() throws(TemplateSyntaxError) -> [Token] {
        var tokens: [Token] = []
        var position = 0
        var line = 1
        var counted = 0
        func lineNumber(at index: Int) -> Int {
            line += source[counted..<index].count { $0 == UInt8(ascii: "\n") }
            counted = index
            return line
        }
        while position < source.count {
            guard let start = find(opening, from: position) else {
                tokens.append(Token(kind: .text, range: position..<source.count, line: lineNumber(at: position)))
                break
            }
            // An empty text in front of a tag that begins the template holds the first line's start (see `lineStarts`).
            if start > position || start == 0 { tokens.append(Token(kind: .text, range: position..<start, line: lineNumber(at: position))) }
            let tagLine = lineNumber(at: start)
            let contentStart = start + opening.count
            guard contentStart < source.count else { throw TemplateSyntaxError(line: tagLine, reason: "unclosed tag") }
            let sigil = source[contentStart]
            let kind: TagKind
            var end = closing
            switch sigil {
            case UInt8(ascii: "{"):
                kind = .unescaped
                end = Array("}".utf8) + closing
            case UInt8(ascii: "&"): kind = .unescaped
            case UInt8(ascii: "#"): kind = .section
            case UInt8(ascii: "^"): kind = .inverted
            case UInt8(ascii: "/"): kind = .close
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: ">"): kind = .partial
            case UInt8(ascii: "="):
                kind = .delimiters
                end = Array("=".utf8) + closing
            case UInt8(ascii: "<"), UInt8(ascii: "$"):
                throw TemplateSyntaxError(line: tagLine, reason: "template inheritance ({{<…}}, {{$…}}) is not supported; use partials")
            case UInt8(ascii: "%"): throw TemplateSyntaxError(line: tagLine, reason: "pragmas ({{%…}}) are not supported")
            default: kind = .variable
            }
            let nameStart = kind == .variable ? contentStart : contentStart + 1
            guard let nameEnd = find(end, from: nameStart) else {
                throw TemplateSyntaxError(line: tagLine, reason: "unclosed tag (no \(String(decoding: end, as: UTF8.self)))")
            }
            let content = String(decoding: source[nameStart..<nameEnd], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            position = nameEnd + end.count
            if kind == .partial, content.hasPrefix("*") {
                throw TemplateSyntaxError(line: tagLine, reason: "dynamic names ({{>*…}}) are not supported; name the partial")
            }
            tokens.append(Token(kind: .tag(kind, content), range: start..<position, line: tagLine))
            if kind == .delimiters {
                let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
                    throw TemplateSyntaxError(line: tagLine, reason: "set delimiters as {{=<% %>=}}: two delimiters without =")
                }
                opening = Array(parts[0].utf8)
                closing = Array(parts[1].utf8)
            }
        }
        return tokens
    }

    /// Leaves out the line of every tag that stands alone on it (its indentation and line break), as Mustache does.
    /// - Returns: Where the lines left out begin in the source.
    private func removeStandaloneLines(_ tokens: inout [Token]) -> Set<Int> {
        var removedLines: Set<Int> = []
        for index in tokens.indices {
            guard case .tag(let kind, _) = tokens[index].kind, kind.canStandAlone else { continue }
            let range = tokens[index].range
            var lineStart = range.lowerBound
            while lineStart > 0, source[lineStart - 1] == UInt8(ascii: " ") || source[lineStart - 1] == UInt8(ascii: "\t") { lineStart -= 1 }
            guard lineStart == 0 || source[lineStart - 1] == UInt8(ascii: "\n") else { continue }
            var lineEnd = range.upperBound
            while lineEnd < source.count, source[lineEnd] == UInt8(ascii: " ") || source[lineEnd] == UInt8(ascii: "\t") { lineEnd += 1 }
            if lineEnd < source.count, source[lineEnd] == UInt8(ascii: "\r"), lineEnd + 1 < source.count, source[lineEnd + 1] == UInt8(ascii: "\n") {
                lineEnd += 2
            } else if lineEnd < source.count, source[lineEnd] == UInt8(ascii: "\n") {
                lineEnd += 1
            } else if lineEnd < source.count {
                continue
            }
            // The line holds only this tag: the text around it loses the line's indentation and line break.
            if index > 0, case .text = tokens[index - 1].kind {
                let previous = tokens[index - 1].range
                tokens[index - 1].range = previous.lowerBound..<max(previous.lowerBound, lineStart)
            }
            if index + 1 < tokens.count, case .text = tokens[index + 1].kind {
                let next = tokens[index + 1].range
                tokens[index + 1].range = min(lineEnd, next.upperBound)..<next.upperBound
            }
            if kind == .partial { tokens[index].indentation = String(decoding: source[lineStart..<range.lowerBound], as: UTF8.self) }
            removedLines.insert(lineStart)
        }
        return removedLines
    }

    /// Where lines of the source begin within `range` of a text (offsets from its start; its end included, where the
    /// next line begins with a tag), leaving out the last line break's empty rest and the lines left out as standalone.
    private func lineStarts(in range: Range<Int>, removedLines: Set<Int>) -> [Int] {
        var starts: [Int] = []
        for position in range.lowerBound...range.upperBound where position < source.count {
            if position == 0 || source[position - 1] == UInt8(ascii: "\n"), !removedLines.contains(position) {
                starts.append(position - range.lowerBound)
            }
        }
        return starts
    }

    private func tree(of tokens: [Token], removedLines: Set<Int>) throws(TemplateSyntaxError) -> [TemplateNode] {
        var open: [(name: TemplateName, inverted: Bool, nodes: [TemplateNode], line: Int)] = [(TemplateName(".")!, false, [], 0)]
        for token in tokens {
            switch token.kind {
            case .text:
                let lineStarts = lineStarts(in: token.range, removedLines: removedLines)
                if !token.range.isEmpty || !lineStarts.isEmpty {
                    open[open.count - 1].nodes.append(.text(Array(source[token.range]), lineStarts: lineStarts))
                }
            case .tag(let kind, let content):
                switch kind {
                case .comment, .delimiters:
                    continue
                case .partial:
                    guard TemplateName(content) != nil else {
                        throw TemplateSyntaxError(line: token.line, reason: "{{> \(content)}} does not name a template")
                    }
                    open[open.count - 1].nodes.append(.partial(content, indentation: token.indentation))
                case .variable, .unescaped:
                    let name = try Self.name(content, line: token.line)
                    open[open.count - 1].nodes.append(.variable(name, escaped: kind == .variable))
                case .section, .inverted:
                    guard open.count <= Self.maximumNesting else {
                        throw TemplateSyntaxError(line: token.line, reason: "sections nest deeper than \(Self.maximumNesting)")
                    }
                    open.append((try Self.name(content, line: token.line), kind == .inverted, [], token.line))
                case .close:
                    let name = try Self.name(content, line: token.line)
                    guard open.count > 1 else { throw TemplateSyntaxError(line: token.line, reason: "{{/\(name)}} closes no section") }
                    let section = open.removeLast()
                    guard section.name == name else {
                        throw TemplateSyntaxError(line: token.line, reason: "{{/\(name)}} closes {{#\(section.name)}} of line \(section.line)")
                    }
                    open[open.count - 1].nodes.append(.section(section.name, inverted: section.inverted, section.nodes))
                }
            }
        }
        if open.count > 1, let unclosed = open.last {
            throw TemplateSyntaxError(line: unclosed.line, reason: "{{\(unclosed.inverted ? "^" : "#")\(unclosed.name)}} is never closed")
        }
        return open[0].nodes
    }

    private static func name(_ content: String, line: Int) throws(TemplateSyntaxError) -> TemplateName {
        guard let name = TemplateName(content) else { throw TemplateSyntaxError(line: line, reason: "{{\(content)}}: not a variable name") }
        return name
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= source.count else { return nil }
        var index = start
        while index <= source.count - needle.count {
            if source[index] == first, source[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
