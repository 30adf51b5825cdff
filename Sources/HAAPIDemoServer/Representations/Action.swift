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
