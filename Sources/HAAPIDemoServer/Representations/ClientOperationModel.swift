/// The model of a `client-operation` action.
struct ClientOperationModel: Encodable, Sendable {
    var name: String
    var arguments: [String: JSONValue]
    var continueActions: [Action]
    var errorActions: [Action]?
}
