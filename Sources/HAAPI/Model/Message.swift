/// A message of a step or problem: already localized text plus CSS-like classes.
public struct Message: Sendable, Hashable {
    /// The localized text (never HTML-escaped by the server; escape when rendering).
    public let text: String
    /// Classes such as `error`, `info`, `heading`, `userName`.
    public let classList: [String]
    /// Optional free-form properties.
    public let properties: JSONValue?

    /// Creates a message.
    /// - Parameters:
    ///   - text: The localized text.
    ///   - classList: The message classes.
    ///   - properties: Optional properties.
    public init(text: String, classList: [String] = [], properties: JSONValue? = nil) {
        self.text = text
        self.classList = classList
        self.properties = properties
    }

    /// The message as HAAPI JSON (`text`, `classList`, `properties`).
    public var json: JSONValue {
        var members: [String: JSONValue] = ["text": .string(text), "classList": .array(classList.map(JSONValue.string))]
        if let properties { members["properties"] = properties }
        return .object(members)
    }
}
