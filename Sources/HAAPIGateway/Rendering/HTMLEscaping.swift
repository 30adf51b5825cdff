/// The HTML escaping of every value a template shows with `{{name}}`: `<`, `>`, `&`, `"` and `'` replaced by their
/// entities, byte by byte on the UTF-8 text, so that a combining mark after a quote or bracket cannot hide it (text
/// without them is copied as it is).
enum HTMLEscaping {
    /// `text`, escaped.
    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text`, escaped, to `output`.
    static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var copied = 0
            for index in bytes.indices {
                let entity: StaticString
                switch bytes[index] {
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "\""): entity = "&quot;"
                case UInt8(ascii: "'"): entity = "&#39;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                output.append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
                copied = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        }
    }
}
