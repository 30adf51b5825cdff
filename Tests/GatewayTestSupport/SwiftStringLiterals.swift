/// The text of the string literals in Swift source, for tests of what the sources write as text: plain (`"…"`),
/// multi-line (`"""…"""`) and raw (`#"…"#`) literals, each cut at its interpolations (`\(…)`, `\#(…)`), whose code is
/// read as code, so a literal inside an interpolation is found too. Comments are skipped; escapes are left as written.
enum SwiftStringLiterals {
    /// A stretch of a literal's text between its delimiters and interpolations.
    struct Segment: Equatable {
        /// The line it starts on, from 1.
        let line: Int
        /// The text as written in the source.
        let text: String
    }

    /// Every literal segment of `source`, in order.
    static func segments(in source: String) -> [Segment] {
        var scanner = Scanner(bytes: Array(source.utf8))
        scanner.code(untilClosingParenthesis: false)
        return scanner.segments
    }

    /// Reads code and literals byte by byte (every delimiter is ASCII, so UTF-8 bytes of other characters never match).
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var segments: [Segment] = []
        /// A place whose line is known, so that lines are counted once (segments are recorded in order).
        private var counted = (index: 0, line: 1)

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// Code up to the end, or up to the `)` that closes an interpolation (consumed).
        mutating func code(untilClosingParenthesis: Bool) {
            var depth = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/"), starts(with: Array("//".utf8)) {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if byte == UInt8(ascii: "/"), starts(with: Array("/*".utf8)) {
                    blockComment()
                } else if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\""), let hashes = literalStart() {
                    literal(hashes: hashes)
                } else if byte == UInt8(ascii: "(") {
                    depth += 1
                    index += 1
                } else if byte == UInt8(ascii: ")") {
                    index += 1
                    if untilClosingParenthesis {
                        if depth == 0 { return }
                        depth -= 1
                    }
                } else {
                    index += 1
                }
            }
        }

        /// A comment, which Swift lets nest.
        private mutating func blockComment() {
            var depth = 0
            while index < bytes.count {
                if starts(with: Array("/*".utf8)) {
                    depth += 1
                    index += 2
                } else if starts(with: Array("*/".utf8)) {
                    depth -= 1
                    index += 2
                    if depth == 0 { return }
                } else {
                    index += 1
                }
            }
        }

        /// The number of `#` of a raw literal starting here (0 for a plain one), or nil when no literal starts here.
        private func literalStart() -> Int? {
            var end = index
            while end < bytes.count, bytes[end] == UInt8(ascii: "#") { end += 1 }
            return end < bytes.count && bytes[end] == UInt8(ascii: "\"") ? end - index : nil
        }

        /// A literal from its opening delimiter to its closing one, its segments recorded.
        private mutating func literal(hashes: Int) {
            let pounds = Array(repeating: UInt8(ascii: "#"), count: hashes)
            index += hashes
            let quote = Array((starts(with: Array("\"\"\"".utf8)) ? "\"\"\"" : "\"").utf8)
            index += quote.count
            let closing = quote + pounds, escape = [UInt8(ascii: "\\")] + pounds
            var start = index
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\""), starts(with: closing) {
                    record(from: start)
                    index += closing.count
                    return
                }
                if bytes[index] == UInt8(ascii: "\\"), starts(with: escape) {
                    let escaped = index + escape.count
                    if escaped < bytes.count, bytes[escaped] == UInt8(ascii: "(") {
                        record(from: start)
                        index = escaped + 1
                        code(untilClosingParenthesis: true)
                        start = index
                    } else {
                        index = escaped + 1
                    }
                    continue
                }
                index += 1
            }
            record(from: start)
        }

        private mutating func record(from start: Int) {
            guard start < index else { return }
            counted.line += bytes[counted.index..<start].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            counted.index = start
            segments.append(Segment(line: counted.line, text: String(decoding: bytes[start..<index], as: UTF8.self)))
        }

        private func starts(with delimiter: [UInt8]) -> Bool {
            index + delimiter.count <= bytes.count && bytes[index..<index + delimiter.count].elementsEqual(delimiter)
        }
    }
}
