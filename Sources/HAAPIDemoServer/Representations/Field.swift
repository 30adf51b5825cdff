/// A form field.
struct Field: Encodable, Sendable {
    var name: String
    var type: String
    var label: String?
    var value: String?
    var placeholder: String?
    var kind: String?
    var minLength: Int?
    var maxLength: Int?
    var checked: Bool?
    var readonly: Bool?
    /// Curity's fields are required unless they say `required: false` ([UIKIT] `haapi-form.types.ts`).
    var required: Bool?

    static func hidden(_ name: String, _ value: String) -> Field { Field(name: name, type: "hidden", value: value) }
    static func context(_ name: String) -> Field { Field(name: name, type: "context") }
}
