/// A form field. One struct covers all field types; members that do not apply to a type are `nil`.
public struct Field: Sendable, Hashable {
    /// The parameter name.
    public let name: String
    /// The field type.
    public let type: FieldType
    /// The label.
    public let label: String?
    /// The placeholder.
    public let placeholder: String?
    /// The value (hidden value, default text, checkbox value).
    public let value: String?
    /// Whether input is required, as sent (nil when the field says nothing: see ``isRequired``).
    public let required: Bool?
    /// Whether input is required: unless the field says `required: false`. Curity's React SDK types say "Defaults to
    /// true" and draw every checkbox, password, select and text field with `required ?? true` ([UIKIT]
    /// `haapi-form.types.ts`, `HaapiStepper…FormFieldUI.tsx`; notes 3.5).
    public var isRequired: Bool { required != false }
    /// Minimum length of the input.
    public let minLength: Int?
    /// Maximum length of the input.
    public let maxLength: Int?
    /// For `text` fields: the input kind (`number`, `email`, `tel`, ...).
    public let textKind: String?
    /// For `select` fields: the options.
    public let options: [SelectOption]
    /// For `checkbox` fields: whether it is checked.
    public let checked: Bool?
    /// For `checkbox` fields: whether it cannot be changed.
    public let readonly: Bool?
    /// The field as received (unknown types and members live here).
    public let raw: JSONValue

    /// Decodes a field.
    /// - Parameters:
    ///   - json: The field object.
    ///   - keepingRawJSON: Whether the field keeps its JSON as `raw`.
    /// - Throws: ``HAAPIError/Code/malformedResponse`` without `name` or `type`.
    public init(json: JSONValue, keepingRawJSON: Bool = true) throws(HAAPIError) {
        guard let name = json["name"]?.stringValue else { throw .malformed("a form field has no name") }
        guard let type = json["type"]?.stringValue else { throw .malformed("a form field has no type") }
        self.name = name
        self.type = FieldType(rawValue: type)
        self.label = json["label"]?.stringValue
        self.placeholder = json["placeholder"]?.stringValue
        self.value = json["value"]?.scalarText
        self.required = json["required"]?.boolValue
        self.minLength = json["minLength"]?.intValue
        self.maxLength = json["maxLength"]?.intValue
        self.textKind = json["kind"]?.stringValue
        self.checked = json["checked"]?.boolValue
        self.readonly = json["readonly"]?.boolValue
        var options: [SelectOption] = []
        for option in json["options"]?.arrayValue ?? [] {
            guard let value = option["value"]?.scalarText else { continue }
            options.append(
                SelectOption(label: option["label"]?.stringValue ?? value, value: value, selected: option["selected"]?.boolValue ?? false)
            )
        }
        self.options = options
        self.raw = keepingRawJSON ? json : .null
    }
}
