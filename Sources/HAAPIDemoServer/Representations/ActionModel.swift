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
