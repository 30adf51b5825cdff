import Foundation
import Hummingbird

/// An `application/x-www-form-urlencoded` body, read up to the configured limit (first value of a name wins).
public struct FormBody: Sendable {
    /// The decoded values by name.
    public let values: [String: String]
    /// Names that appeared more than once (an OAuth request must not repeat a parameter, RFC 6749 §3.1).
    public let repeatedNames: Set<String>

    static func read(_ request: Request, limit: Int) async throws -> FormBody {
        var request = request
        let buffer = try await request.collectBody(upTo: limit)
        return FormBody(parsing: String(buffer: buffer))
    }

    /// Decodes a urlencoded body (`+` as space, percent escapes); a malformed name drops its pair, a malformed value
    /// reads as empty. Malformed: a `%` not followed by two hex digits, or escapes that do not decode to UTF-8.
    public init(parsing text: String) {
        var values: [String: String] = [:]
        var repeated: Set<String> = []
        for pair in text.utf8.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            if values[name] == nil { values[name] = parts.count > 1 ? Self.decode(parts[1]) ?? "" : "" } else { repeated.insert(name) }
        }
        self.values = values
        self.repeatedNames = repeated
    }

    /// One name or value: `+` as space, `%XX` as that byte; nil when an escape is malformed or the bytes are not UTF-8.
    private static func decode(_ encoded: Substring.UTF8View) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index != encoded.endIndex {
            let byte = encoded[index]
            encoded.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != encoded.endIndex, let high = hexValue(encoded[index]) else { return nil }
                encoded.formIndex(after: &index)
                guard index != encoded.endIndex, let low = hexValue(encoded[index]) else { return nil }
                encoded.formIndex(after: &index)
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
