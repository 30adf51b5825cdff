import HAAPI

extension TemplateValue {
    /// A HAAPI JSON value as a template value, every member kept: objects and arrays as such, numbers as their JSON text
    /// (`3000`, `1.5`), `null` as false (a section over it is skipped, an interpolation shows nothing).
    init(json: JSONValue) {
        switch json {
        case .null: self = .bool(false)
        case .bool(let value): self = .bool(value)
        case .number(let value):
            self = .string(value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value))
        case .string(let value): self = .string(value)
        case .array(let elements): self = .list(elements.map(TemplateValue.init(json:)))
        case .object(let members): self = .object(members.mapValues(TemplateValue.init(json:)))
        }
    }
}
