/// JSON string literals for hand-built JWT claims and JSON text (RFC 8259 §7 escaping, ``JSONWriter``'s).
enum JSONString {
    /// `text` as a quoted JSON string.
    /// - Parameter text: Any text.
    static func quoted(_ text: String) -> String {
        var writer = JSONWriter(reservingCapacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
