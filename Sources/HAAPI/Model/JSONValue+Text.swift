extension JSONValue {
    /// Compact JSON text of this value, the same for equal values (object members sorted by name), which ``JSONParser``
    /// reads back to an equal value. Never fails: integral numbers below 2^53 are written as integers, other finite
    /// numbers in Swift's shortest round-tripping form, infinities (a number too large for a `Double`, as `1e999` parses)
    /// as `±1e999`, and NaN, which no parsed JSON holds, as `null`.
    var jsonText: String {
        var text = ""
        append(to: &text)
        return text
    }

    private func append(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += Self.numberText(value)
        case .string(let value): text += JSONString.quoted(value)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.append(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, name) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                text += JSONString.quoted(name)
                text += ":"
                members[name]?.append(to: &text)
            }
            text += "}"
        }
    }

    private static func numberText(_ value: Double) -> String {
        if value.isNaN { return "null" }
        if value.isInfinite { return value < 0 ? "-1e999" : "1e999" }
        if value.rounded() == value, abs(value) < 9.0e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
