/// The JSON of a decoded step or action, for a saved ``HAAPIFlowState``: the JSON as received when the value kept it
/// (`raw`), else JSON written from the typed members that decodes back to an equal value.
///
/// A step decoded without its raw JSON (``HAAPIClientConfiguration/keepsRawJSON`` off, as in the gateway) keeps every
/// member its decoder reads, typed, and the free-form ones (`properties`, client-operation `arguments`, the model of an
/// unknown template) as JSON; writing those back and decoding the result with the same setting gives the same value.
/// The tests check this for every shared sample and every action in them.
enum StepJSON {
    /// The JSON of a step.
    static func json(of step: Representation) -> JSONValue {
        if step.raw != .null { return step.raw }
        var members: [String: JSONValue] = ["type": .string(step.type.rawValue)]
        if let title = step.title { members["title"] = .string(title) }
        if !step.actions.isEmpty { members["actions"] = .array(step.actions.map(json(of:))) }
        if !step.links.isEmpty { members["links"] = .array(step.links.map(json(of:))) }
        if !step.messages.isEmpty { members["messages"] = .array(step.messages.map(\.json)) }
        if let metadata = step.metadata { members["metadata"] = json(of: metadata) }
        if let properties = step.properties { members["properties"] = properties }
        return .object(members)
    }

    /// The JSON of an action.
    static func json(of action: Action) -> JSONValue {
        if action.raw != .null { return action.raw }
        var members: [String: JSONValue] = ["template": .string(action.template), "kind": .string(action.kind.rawValue)]
        if let title = action.title { members["title"] = .string(title) }
        if let properties = action.properties { members["properties"] = properties }
        switch action.model {
        case .form(let form): members["model"] = json(of: form)
        case .selector(let options): members["model"] = .object(["options": .array(options.map(json(of:)))])
        case .clientOperation(let operation): members["model"] = json(of: operation)
        case .unknown(_, let model): if let model { members["model"] = model }
        }
        return .object(members)
    }

    private static func json(of form: FormModel) -> JSONValue {
        var members: [String: JSONValue] = [
            "href": .string(form.href), "method": .string(form.method), "fields": .array(form.fields.map(json(of:))),
        ]
        if let type = form.type { members["type"] = .string(type) }
        if let actionTitle = form.actionTitle { members["actionTitle"] = .string(actionTitle) }
        if let title = form.title { members["title"] = .string(title) }
        if !form.continueActions.isEmpty { members["continueActions"] = .array(form.continueActions.map(json(of:))) }
        if !form.errorActions.isEmpty { members["errorActions"] = .array(form.errorActions.map(json(of:))) }
        return .object(members)
    }

    private static func json(of operation: ClientOperation) -> JSONValue {
        var members: [String: JSONValue] = ["name": .string(operation.name)]
        if let arguments = operation.arguments { members["arguments"] = arguments }
        if !operation.continueActions.isEmpty { members["continueActions"] = .array(operation.continueActions.map(json(of:))) }
        if !operation.errorActions.isEmpty { members["errorActions"] = .array(operation.errorActions.map(json(of:))) }
        return .object(members)
    }

    private static func json(of field: Field) -> JSONValue {
        if field.raw != .null { return field.raw }
        var members: [String: JSONValue] = ["name": .string(field.name), "type": .string(field.type.rawValue)]
        if let label = field.label { members["label"] = .string(label) }
        if let placeholder = field.placeholder { members["placeholder"] = .string(placeholder) }
        if let value = field.value { members["value"] = .string(value) }
        if let required = field.required { members["required"] = .bool(required) }
        if let minLength = field.minLength { members["minLength"] = .number(Double(minLength)) }
        if let maxLength = field.maxLength { members["maxLength"] = .number(Double(maxLength)) }
        if let textKind = field.textKind { members["kind"] = .string(textKind) }
        if let checked = field.checked { members["checked"] = .bool(checked) }
        if let readonly = field.readonly { members["readonly"] = .bool(readonly) }
        if !field.options.isEmpty {
            members["options"] = .array(
                field.options.map { .object(["label": .string($0.label), "value": .string($0.value), "selected": .bool($0.selected)]) }
            )
        }
        return .object(members)
    }

    private static func json(of link: Link) -> JSONValue {
        if link.raw != .null { return link.raw }
        var members: [String: JSONValue] = ["href": .string(link.href), "rel": .string(link.rel)]
        if let title = link.title { members["title"] = .string(title) }
        if let type = link.type { members["type"] = .string(type) }
        return .object(members)
    }

    private static func json(of metadata: Metadata) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if let viewName = metadata.viewName { members["viewName"] = .string(viewName) }
        if let templateArea = metadata.templateArea { members["templateArea"] = .string(templateArea) }
        return .object(members)
    }
}
