/// The model of a `selector` action.
struct SelectorModel: Encodable, Sendable {
    var options: [Action]
}
