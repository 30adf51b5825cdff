import Foundation

/// An action of a step: what the client may do next.
public struct Action: Sendable, Hashable {
    /// The template string as received (`form`, `selector`, `client-operation`, ...).
    public let template: String
    /// The kind hint.
    public let kind: ActionKind
    /// The title (for forms, falls back to the model's `title`).
    public let title: String?
    /// Optional properties, e.g. `{"authenticatorType": "html-form"}`.
    public let properties: JSONValue?
    /// The typed model.
    public let model: ActionModel
    /// The action as received.
    public let raw: JSONValue

    /// The form model, when this is a form action, or an action of a template this library does not know whose model
    /// is shaped like a form (`href` and `method`): such an action can be submitted like one ([DATAMODEL]: handle any
    /// valid response graciously). Its fields keep their raw JSON when this action kept its own.
    public var form: FormModel? {
        switch model {
        case .form(let form): form
        case .unknown(_, let json?): try? FormModel(json: json, keepingRawJSON: raw != .null)
        default: nil
        }
    }

    /// The options, when this is a selector action.
    public var selectorOptions: [Action]? {
        if case .selector(let options) = model { return options }
        return nil
    }

    /// The client operation, when this is a client-operation action.
    public var clientOperation: ClientOperation? {
        if case .clientOperation(let operation) = model { return operation }
        return nil
    }

    /// The actions that follow this one: a form's or client operation's `continueActions`, or those of an action of a
    /// template this library does not know (such as the pre-release `launch`) when its model has them.
    public var continueActions: [Action] { nestedActions("continueActions") }

    /// The fallbacks of this action: a form's or client operation's `errorActions`, or those of an unknown template's model.
    public var errorActions: [Action] { nestedActions("errorActions") }

    private func nestedActions(_ member: String) -> [Action] {
        switch model {
        case .form(let form): member == "continueActions" ? form.continueActions : form.errorActions
        case .clientOperation(let operation): member == "continueActions" ? operation.continueActions : operation.errorActions
        // Decoded as this action was, with or without raw JSON, as a form's nested actions are.
        case .unknown(_, let model): (try? Action.list(model?[member], keepingRawJSON: raw != .null)) ?? []
        case .selector: []
        }
    }

    /// Decodes an action from JSON; never fails on unknown members.
    /// - Parameters:
    ///   - json: The action object.
    ///   - keepingRawJSON: Whether the action and everything in it keep their JSON as `raw`.
    /// - Throws: ``HAAPIError/Code/malformedResponse`` when required members are missing or of the wrong type.
    public init(json: JSONValue, keepingRawJSON: Bool = true) throws(HAAPIError) {
        guard case .object = json else { throw .malformed("an action is not a JSON object") }
        guard let template = json["template"]?.stringValue else { throw .malformed("an action has no template") }
        self.template = template
        self.kind = ActionKind(rawValue: json["kind"]?.stringValue ?? "")
        self.properties = json["properties"]
        self.raw = keepingRawJSON ? json : .null
        let modelJSON = json["model"]
        switch template.trimmingWhitespace {
        case "form":
            guard let modelJSON else { throw .malformed("a form action has no model") }
            let form = try FormModel(json: modelJSON, keepingRawJSON: keepingRawJSON)
            self.model = .form(form)
            self.title = json["title"]?.stringValue ?? form.title
        case "selector":
            let options = try Action.list(modelJSON?["options"], keepingRawJSON: keepingRawJSON)
            self.model = .selector(options: options)
            self.title = json["title"]?.stringValue
        case "client-operation":
            guard let modelJSON else { throw .malformed("a client-operation action has no model") }
            self.model = .clientOperation(try ClientOperation(json: modelJSON, keepingRawJSON: keepingRawJSON))
            self.title = json["title"]?.stringValue
        default:
            self.model = .unknown(template: template, model: modelJSON)
            self.title = json["title"]?.stringValue
        }
    }

    /// Decodes an optional array of actions.
    static func list(_ json: JSONValue?, keepingRawJSON: Bool) throws(HAAPIError) -> [Action] {
        guard let json, json != .null else { return [] }
        guard let elements = json.arrayValue else { throw .malformed("actions are not a JSON array") }
        var actions: [Action] = []
        actions.reserveCapacity(elements.count)
        for element in elements { actions.append(try Action(json: element, keepingRawJSON: keepingRawJSON)) }
        return actions
    }
}
