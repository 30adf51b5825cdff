/// Where each character of a Swift source lies: in code, in a comment, or in a string literal (its delimiters and its
/// interpolations included, numbered by the outermost literal), and which backslashes continue a line of a multi-line
/// literal (for FindableMessagesTests). Regex literals are not read: the sources have none.
struct SwiftLiteralScan {
    enum Place: Equatable {
        case code
        case comment
        case literal(Int)
    }

    private enum Frame {
        case code(depth: Int)
        case literal(hashes: Int, multiline: Bool)
    }

    let scalars: [Unicode.Scalar]
    private(set) var places: [Place]
    /// The positions of the backslashes that escape a newline in a multi-line literal.
    private(set) var continuations: [Int] = []
    private var stack: [Frame] = [.code(depth: 0)]
    private var outermost: Int?
    private var literals = 0
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        places = Array(repeating: .code, count: scalars.count)
        while index < scalars.count {
            switch stack[stack.count - 1] {
            case .code(let depth): scanCode(depth: depth)
            case .literal(let hashes, let multiline): scanLiteral(hashes: hashes, multiline: multiline)
            }
        }
    }

    private func has(_ prefix: String, at position: Int) -> Bool {
        var position = position
        for scalar in prefix.unicodeScalars {
            guard position < scalars.count, scalars[position] == scalar else { return false }
            position += 1
        }
        return true
    }

    private mutating func mark(_ range: Range<Int>, _ place: Place) {
        for position in range where position < places.count { places[position] = place }
    }

    /// The hashes and the kind of a string literal opening at `position`, and the opening's length.
    private func opening(at position: Int) -> (hashes: Int, multiline: Bool, length: Int)? {
        var hashes = 0
        while has("#", at: position + hashes) { hashes += 1 }
        if has("\"\"\"", at: position + hashes) { return (hashes, true, hashes + 3) }
        if has("\"", at: position + hashes) { return (hashes, false, hashes + 1) }
        return nil
    }

    /// Code, or the code of an interpolation (which belongs to its literal).
    private mutating func scanCode(depth: Int) {
        let scalar = scalars[index]
        if scalar != "/", scalar != "#", scalar != "\"" {
            places[index] = outermost.map { .literal($0) } ?? .code
            if scalar == "(" {
                stack[stack.count - 1] = .code(depth: depth + 1)
            } else if scalar == ")" {
                if depth == 0, stack.count > 1 { stack.removeLast() } else { stack[stack.count - 1] = .code(depth: depth - 1) }
            }
            index += 1
        } else if has("//", at: index) {
            var end = index
            while end < scalars.count, scalars[end] != "\n" { end += 1 }
            mark(index..<end, .comment)
            index = end
        } else if has("/*", at: index) {
            var end = index
            var nesting = 0
            repeat {
                if has("/*", at: end) {
                    nesting += 1
                    end += 2
                } else if has("*/", at: end) {
                    nesting -= 1
                    end += 2
                } else {
                    end += 1
                }
            } while nesting > 0 && end < scalars.count
            mark(index..<end, .comment)
            index = end
        } else if let opening = opening(at: index) {
            if outermost == nil {
                outermost = literals
                literals += 1
            }
            mark(index..<index + opening.length, .literal(outermost ?? 0))
            stack.append(.literal(hashes: opening.hashes, multiline: opening.multiline))
            index += opening.length
        } else {
            places[index] = outermost.map { .literal($0) } ?? .code
            index += 1
        }
    }

    /// The text of a literal: an escape (an interpolation's opening, a continuation), its end, or a character.
    private mutating func scanLiteral(hashes: Int, multiline: Bool) {
        let place = Place.literal(outermost ?? 0)
        guard scalars[index] == "\\" || scalars[index] == "\"" else {
            places[index] = place
            index += 1
            return
        }
        let pounds = String(repeating: "#", count: hashes)
        if has("\\" + pounds, at: index) {
            let next = index + 1 + hashes
            mark(index..<next + 1, place)
            if next < scalars.count, scalars[next] == "(" {
                stack.append(.code(depth: 0))
            } else if multiline, next < scalars.count, scalars[next] == "\n" {
                continuations.append(index)
            }
            index = next + 1
        } else if has((multiline ? "\"\"\"" : "\"") + pounds, at: index) {
            let length = (multiline ? 3 : 1) + hashes
            mark(index..<index + length, place)
            stack.removeLast()
            if !stack.contains(where: { if case .literal = $0 { true } else { false } }) { outermost = nil }
            index += length
        } else {
            places[index] = place
            index += 1
        }
    }
}
