import Foundation

/// The model of a `form` action: where and how to submit, and which fields.
public struct FormModel: Sendable, Hashable {
    /// The target, often relative.
    public let href: String
    /// The HTTP method, upper-cased (`GET` or `POST`).
    public let method: String
    /// The body media type (`application/x-www-form-urlencoded` or `application/json`), if given.
    public let type: String?
    /// The submit button label.
    public let actionTitle: String?
    /// A title given inside the model (some servers put it here instead of on the action).
    public let title: String?
    /// The fields; empty when the form takes no input.
    public let fields: [Field]
    /// Actions to continue with after this one.
    public let continueActions: [Action]
    /// Actions to use when this one fails.
    public let errorActions: [Action]

    /// Whether the body is JSON (`type` is `application/json` or a `+json` type).
    public var isJSON: Bool { MediaType.isJSON(type) }

    /// The field named `name`, if declared.
    /// - Parameter name: The field name.
    public func field(named name: String) -> Field? { fields.first { $0.name == name } }

    /// Decodes a form model.
    /// - Parameters:
    ///   - json: The model object.
    ///   - keepingRawJSON: Whether its fields and actions keep their JSON as `raw`.
    /// - Throws: ``HAAPIError/Code/malformedResponse`` without `href` or `method`.
    public init(json: JSONValue, keepingRawJSON: Bool = true) throws(HAAPIError) {
        guard let href = json["href"]?.stringValue else { throw .malformed("a form has no href") }
        guard let method = json["method"]?.stringValue else { throw .malformed("a form has no method") }
        self.href = href
        self.method = method.trimmingWhitespace.uppercased()
        self.type = json["type"]?.stringValue
        self.actionTitle = json["actionTitle"]?.stringValue
        self.title = json["title"]?.stringValue
        var fields: [Field] = []
        if let list = json["fields"], list != .null {
            guard let elements = list.arrayValue else { throw .malformed("form fields are not a JSON array") }
            for element in elements { fields.append(try Field(json: element, keepingRawJSON: keepingRawJSON)) }
        }
        self.fields = fields
        self.continueActions = try Action.list(json["continueActions"], keepingRawJSON: keepingRawJSON)
        self.errorActions = try Action.list(json["errorActions"], keepingRawJSON: keepingRawJSON)
    }
}
