import Foundation

/// A strict RFC 8259 JSON parser producing ``JSONValue``.
///
/// Used instead of `JSONDecoder` for upstream bodies: it does not throw once per value while guessing
/// types (fast on large steps), bounds nesting depth (no stack exhaustion on hostile input), and reports
/// only an offset (never body content).
enum JSONParser {
    /// The input is not JSON; `offset` is the byte where parsing stopped.
    struct SyntaxError: Error {
        let offset: Int
    }

    /// The deepest nesting accepted.
    static let maxDepth = 200

    /// Parses a complete JSON text.
    /// - Parameter data: The bytes.
    static func parse(_ data: Data) throws(SyntaxError) -> JSONValue {
        let array = [UInt8](data)
        let result = array.withUnsafeBufferPointer { buffer -> Result<JSONValue, SyntaxError> in
            var reader = Reader(bytes: buffer)
            reader.skipWhitespace()
            do throws(SyntaxError) {
                let value = try reader.parseValue(depth: 0)
                reader.skipWhitespace()
                guard reader.index == buffer.count else { throw SyntaxError(offset: reader.index) }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        func fail() -> SyntaxError { SyntaxError(offset: index) }

        mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < JSONParser.maxDepth, index < bytes.count else { throw fail() }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth)
            case UInt8(ascii: "["): return try parseArray(depth: depth)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return .null
            default:
                return .number(try parseNumber())
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw fail() }
            let matches = literal.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
            }
            guard matches else { throw fail() }
            index += count
        }

        mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
            index += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail() }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail() }
                index += 1
                skipWhitespace()
                members[key] = try parseValue(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw fail() }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    throw fail()
                }
            }
        }

        mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw fail() }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                } else {
                    throw fail()
                }
            }
        }

        /// Parses a string starting at its opening quote.
        mutating func parseString() throws(SyntaxError) -> String {
            index += 1
            let start = index
            // Fast path: no escapes.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: bytes[start..<index], as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw fail() }
                index += 1
            }
            var buffer = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: buffer, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw fail() }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): buffer.append(0x22)
                    case UInt8(ascii: "\\"): buffer.append(0x5C)
                    case UInt8(ascii: "/"): buffer.append(0x2F)
                    case UInt8(ascii: "b"): buffer.append(0x08)
                    case UInt8(ascii: "f"): buffer.append(0x0C)
                    case UInt8(ascii: "n"): buffer.append(0x0A)
                    case UInt8(ascii: "r"): buffer.append(0x0D)
                    case UInt8(ascii: "t"): buffer.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try parseHex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            // A high surrogate must be followed by an escaped low surrogate.
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                throw fail()
                            }
                            index += 2
                            let low = try parseHex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw fail() }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00..<0xE000).contains(scalar) {
                            throw fail()
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw fail() }
                        buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default:
                        throw fail()
                    }
                default:
                    guard byte >= 0x20 else { throw fail() }
                    buffer.append(byte)
                    index += 1
                }
            }
            throw fail()
        }

        mutating func parseHex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail() }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw fail()
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        /// Parses a number per the RFC 8259 grammar.
        mutating func parseNumber() throws(SyntaxError) -> Double {
            let start = index
            func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail() }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw fail() }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw fail() }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { throw fail() }
            return value
        }
    }
}
