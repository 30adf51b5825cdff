/// A HAAPI message: localized `text` and its `classList`.
struct Message: Encodable, Sendable {
    var text: String
    var classList: [String]

    static func info(_ text: String) -> Message { Message(text: text, classList: ["info"]) }
    static func error(_ text: String) -> Message { Message(text: text, classList: ["error"]) }
    static func heading(_ text: String) -> Message { Message(text: text, classList: ["heading"]) }
    static func plain(_ text: String) -> Message { Message(text: text, classList: []) }
}
