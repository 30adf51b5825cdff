import HAAPI

extension TemplateValue {
    /// A HAAPI JSON value as a template value, every member kept: objects and arrays as such, numbers as their JSON text
    /// (`3000`, `1.21`), `null` as ``TemplateValue/null`` (shows nothing, falsey). The Mustache specification's data
    /// reads the same way.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number: self = .string(json.scalarText ?? "")
        case .string(let value): self = .string(value)
        case .array(let elements): self = .list(elements.map(TemplateValue.init(json:)))
        case .object(let members): self = .object(TemplateObject(members.mapValues(TemplateValue.init(json:))))
        }
    }
}
