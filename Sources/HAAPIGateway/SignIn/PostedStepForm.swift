import HAAPI

/// What a post of a step's form sends upstream, read from the browser's values by each field's page name
/// (``PageFieldName``): hidden fields come from the step, never from the browser; undeclared names are dropped; a
/// checkbox sends its value when ticked. What the person typed (not passwords) is kept to show again, and required
/// fields left empty are named: the form decides whether the post goes upstream (``refusal``), the session applies it.
struct PostedStepForm {
    /// The values to submit, by upstream name.
    private(set) var parameters: [String: JSONValue] = [:]
    /// Required fields left empty, with what the page says of each.
    private(set) var missing: [String: PageText] = [:]
    /// What the person typed, by upstream name, to fill the page again (never a password).
    private(set) var typed: [String: String] = [:]
    /// A context field of a JSON form (a WebAuthn credential) that is not a bounded JSON object.
    private(set) var invalidJSON = false

    /// Why the post goes no further than the gateway (a passkey answer that is not a bounded JSON object, required
    /// fields left empty); nil when it is sent upstream.
    var refusal: SignInRefusal? {
        if invalidJSON { return .invalidPasskey }
        if !missing.isEmpty { return .missingFields(missing, typed: typed) }
        return nil
    }

    /// Reads the browser's `form` for a step form of `model`.
    init(model: FormModel, posted form: [String: String]) {
        for field in model.fields {
            let posted = form[PageFieldName.onPage(field.name)]
            switch field.type {
            case .hidden:
                continue
            case .checkbox:
                typed[field.name] = posted == nil ? "" : "on"
                if posted != nil {
                    parameters[field.name] = .string(field.value ?? "on")
                } else if field.isRequired, field.readonly != true {
                    missing[field.name] = .gateway(.requiredField, arguments: ["field": field.label ?? field.name])
                }
            default:
                let value = posted ?? ""
                if field.type == .context, model.isJSON {
                    guard let object = PostedJSONObject.parse(value) else {
                        invalidJSON = true
                        return
                    }
                    parameters[field.name] = object
                    continue
                }
                if field.type != .password { typed[field.name] = value }
                if value.isEmpty {
                    if field.isRequired { missing[field.name] = .gateway(.requiredField, arguments: ["field": field.label ?? field.name]) }
                } else {
                    parameters[field.name] = .string(value)
                }
            }
        }
    }
}
