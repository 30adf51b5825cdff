import Mustache

/// The HTML escaping of every gateway template: the same five characters swift-mustache's own HTML content type
/// escapes (`<`, `>`, `&`, `"`, `'`), done on UTF-8 bytes, and text with none of them returned as it is. Every template
/// source is compiled with ``pragma`` in front (see ``TemplateLibrary``), overrides included.
struct HTMLEscaping: MustacheContentType {
    /// The name it is registered under with swift-mustache.
    static let name = "HAAPI_GATEWAY_HTML"

    /// The line put in front of each template source (a standalone tag: the line is dropped from the output).
    static let pragma: String = {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
        return "{{% CONTENT_TYPE: \(name) }}\n"
    }()

    func escapeText(_ text: String) -> String {
        guard text.utf8.contains(where: Self.needsEscaping) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
