/// A HAAPI action: `template`, `kind`, optional `title` and `properties`, and a template-specific `model`.
struct Action: Encodable, Sendable {
    var template: String
    var kind: String
    var title: String?
    var properties: [String: String]?
    var model: ActionModel

    /// A `form` action.
    static func form(kind: String, title: String? = nil, properties: [String: String]? = nil, _ model: FormModel) -> Action {
        Action(template: "form", kind: kind, title: title, properties: properties, model: .form(model))
    }

    /// A `selector` action over other actions.
    static func selector(kind: String, title: String?, options: [Action]) -> Action {
        Action(template: "selector", kind: kind, title: title, model: .selector(SelectorModel(options: options)))
    }

    /// A `client-operation` action.
    static func clientOperation(kind: String, title: String?, _ model: ClientOperationModel) -> Action {
        Action(template: "client-operation", kind: kind, title: title, model: .clientOperation(model))
    }
}

/// The `model` of an action, by template.
enum ActionModel: Encodable, Sendable {
    case form(FormModel)
    case selector(SelectorModel)
    case clientOperation(ClientOperationModel)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .form(let model): try model.encode(to: encoder)
        case .selector(let model): try model.encode(to: encoder)
        case .clientOperation(let model): try model.encode(to: encoder)
        }
    }
}

/// The model of a `selector` action.
struct SelectorModel: Encodable, Sendable {
    var options: [Action]
}

/// The model of a `client-operation` action.
struct ClientOperationModel: Encodable, Sendable {
    var name: String
    var arguments: [String: String]
    var continueActions: [Action]
    var errorActions: [Action]?
}
