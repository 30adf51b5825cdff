/// The model of an action, shaped by its `template`.
public enum ActionModel: Sendable, Hashable {
    /// `template: form`.
    case form(FormModel)
    /// `template: selector`: options, each a full action (possibly a nested selector).
    case selector(options: [Action])
    /// `template: client-operation`.
    case clientOperation(ClientOperation)
    /// Any other template (e.g. the pre-release `launch`): the model as received.
    case unknown(template: String, model: JSONValue?)
}
