import Foundation

/// JSON text written straight into UTF-8 bytes, member by member in the order the caller writes them: the fast path of a
/// document saved on every step (a sign-in's record and ``HAAPIFlowState``), which `JSONEncoder` wrote through a tree of
/// containers and boxed values. A caller that writes its members in a fixed order (and a dictionary's in sorted order,
/// as the dictionary `member` does) gets the same bytes for equal values.
///
/// Strings are escaped as RFC 8259 requires and no more: `"` and `\`, and the control characters (`\b`, `\f`, `\n`,
/// `\r`, `\t`, the others as `\u00XX`); everything else is written as its UTF-8. Values are written as `JSONEncoder` with
/// its default strategies writes them, so that `JSONDecoder` reads them back equal: a `Date` as its seconds since
/// 2001-01-01 (``date(_:)``), and a number that is not finite refused as `JSONEncoder` refuses it.
package struct JSONWriter: Sendable {
    /// The text written so far.
    package private(set) var bytes: [UInt8] = []
    /// Whether the next key or value of the open object or array follows another one (a comma goes first).
    private var followsValue = false
    /// The digits of a `\u00XX` escape.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// An empty writer.
    /// - Parameter capacity: The bytes to reserve: about the size of the text, so that it is not copied as it grows.
    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object (`{`), as a value.
    package mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        followsValue = false
    }

    /// Closes the open object (`}`).
    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        followsValue = true
    }

    /// Opens an array (`[`), as a value.
    package mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        followsValue = false
    }

    /// Closes the open array (`]`).
    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        followsValue = true
    }

    /// Writes the name of the open object's next member; its value comes next.
    /// - Parameter name: The member's name.
    package mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        followsValue = false
    }

    /// Writes a string.
    /// - Parameter text: Any text.
    package mutating func string(_ text: String) {
        separate()
        appendQuoted(text)
        followsValue = true
    }

    /// Writes an integer.
    /// - Parameter value: Any integer.
    package mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        followsValue = true
    }

    /// Writes `true` or `false`.
    /// - Parameter value: The boolean.
    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        followsValue = true
    }

    /// Writes `null`.
    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        followsValue = true
    }

    /// Writes a number: an integral one below 2^53 as an integer (as ``JSONValue`` encodes one), any other in Swift's
    /// shortest form that reads back as the same `Double`.
    /// - Parameter value: The number.
    /// - Throws: `EncodingError.invalidValue` for an infinity or NaN, which JSON cannot hold (`JSONEncoder` refuses them
    ///   too); nothing is written then.
    package mutating func number(_ value: Double) throws(EncodingError) {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        anyNumber(value)
    }

    /// Writes any number, one that is not finite as text that ``JSONParser`` reads back alike: an infinity as `±1e999`
    /// (as `1e999` parses), NaN, which no parsed JSON holds, as `null` (``JSONValue/jsonText``, which never fails).
    /// - Parameter value: The number.
    mutating func anyNumber(_ value: Double) {
        separate()
        if value.isNaN {
            bytes.append(contentsOf: "null".utf8)
        } else if value.isInfinite {
            bytes.append(contentsOf: (value < 0 ? "-1e999" : "1e999").utf8)
        } else if value.rounded() == value, abs(value) < 9.0e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
        followsValue = true
    }

    /// Writes a date as `JSONEncoder`'s default strategy does: its seconds since 2001-01-01 00:00 UTC
    /// (`timeIntervalSinceReferenceDate`), which `JSONDecoder` reads back as the same date.
    /// - Parameter date: The date.
    /// - Throws: `EncodingError.invalidValue` for a date that is not a finite time.
    package mutating func date(_ date: Date) throws(EncodingError) {
        try number(date.timeIntervalSinceReferenceDate)
    }

    /// Writes any JSON value; an object's members in sorted order.
    /// - Parameter value: The value.
    /// - Throws: `EncodingError.invalidValue` for a number that is not finite.
    package mutating func value(_ value: JSONValue) throws(EncodingError) {
        try write(value) { (writer, number) throws(EncodingError) in try writer.number(number) }
    }

    /// Writes any JSON value, an object's members in sorted order, a number that is not finite as ``anyNumber(_:)``
    /// writes it.
    /// - Parameter value: The value.
    mutating func anyValue(_ value: JSONValue) {
        write(value) { writer, number in writer.anyNumber(number) }
    }

    /// Writes `value`, its numbers through `writeNumber`.
    private mutating func write<Failure: Error>(
        _ value: JSONValue,
        numbers writeNumber: (inout JSONWriter, Double) throws(Failure) -> Void
    ) throws(Failure) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): try writeNumber(&self, number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { try write(element, numbers: writeNumber) }
            endArray()
        case .object(let members):
            beginObject()
            for name in members.keys.sorted() {
                key(name)
                try write(members[name] ?? .null, numbers: writeNumber)
            }
            endObject()
        }
    }

    /// Writes a member with a string value; none when `text` is nil (as a synthesized `Encodable` leaves out a nil
    /// optional).
    /// - Parameters:
    ///   - name: The member's name.
    ///   - text: Its value.
    package mutating func member(_ name: String, _ text: String?) {
        guard let text else { return }
        key(name)
        string(text)
    }

    /// Writes a member with an integer value; none when `value` is nil.
    /// - Parameters:
    ///   - name: The member's name.
    ///   - value: Its value.
    package mutating func member(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name)
        integer(value)
    }

    /// Writes a member with a boolean value.
    /// - Parameters:
    ///   - name: The member's name.
    ///   - value: Its value.
    package mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes a member with a date value (``date(_:)``); none when `value` is nil.
    /// - Parameters:
    ///   - name: The member's name.
    ///   - value: Its value.
    /// - Throws: `EncodingError.invalidValue` for a date that is not a finite time.
    package mutating func member(_ name: String, _ value: Date?) throws(EncodingError) {
        guard let value else { return }
        key(name)
        try date(value)
    }

    /// Writes a member whose value is an array of strings.
    /// - Parameters:
    ///   - name: The member's name.
    ///   - texts: Its elements.
    package mutating func member(_ name: String, _ texts: [String]) {
        key(name)
        beginArray()
        for text in texts { string(text) }
        endArray()
    }

    /// Writes a member whose value is an object of strings, its members in sorted order (the same bytes for equal
    /// dictionaries, whatever their order of iteration).
    /// - Parameters:
    ///   - name: The member's name.
    ///   - texts: Its members.
    package mutating func member(_ name: String, _ texts: [String: String]) {
        key(name)
        beginObject()
        for entry in texts.sorted(by: { $0.key < $1.key }) {
            key(entry.key)
            string(entry.value)
        }
        endObject()
    }

    /// A comma, when a key or value follows another one.
    private mutating func separate() {
        if followsValue { bytes.append(UInt8(ascii: ",")) }
    }

    /// `text` as a JSON string: runs of bytes that need no escape are copied whole.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscape(of: byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escape of a quote, a backslash or a control character.
    private mutating func appendEscape(of byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let digits = Self.hexDigits
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
    }
}
