/// An RFC 7807 problem (`application/problem+json`) returned by HAAPI. A value to render, not an error.
public struct Problem: Sendable, Hashable {
    /// The `type` URI.
    public let type: String
    /// The kind derived from ``type``.
    public let kind: ProblemKind
    /// The title.
    public let title: String?
    /// The detail.
    public let detail: String?
    /// The `status` member, if sent.
    public let status: Int?
    /// The `instance` member, if sent.
    public let instance: String?
    /// A `code` member (Curity's unexpected problems send e.g. `authorization_failed`).
    public let code: String?
    /// The messages.
    public let messages: [Message]
    /// The links (e.g. a `restart` link).
    public let links: [Link]
    /// The metadata, if sent.
    public let metadata: Metadata?
    /// For invalid-input problems: the fields in error.
    public let invalidFields: [InvalidField]
    /// For authorization problems: the OAuth `error`.
    public let error: String?
    /// For authorization problems: the OAuth `error_description`.
    public let errorDescription: String?
    /// The HTTP status of the response that carried the problem.
    public let httpStatus: Int
    /// The problem as received.
    public let raw: JSONValue

    /// Decodes a problem; unknown members never fail.
    /// - Parameters:
    ///   - json: The problem object.
    ///   - httpStatus: The HTTP status of the response.
    /// - Throws: ``HAAPIError/Code/malformedResponse`` when `type` is missing.
    public init(json: JSONValue, httpStatus: Int) throws(HAAPIError) {
        guard case .object = json else { throw .malformed("the problem is not a JSON object") }
        guard let type = json["type"]?.stringValue else { throw .malformed("the problem has no type") }
        self.type = type
        self.kind = ProblemKind(type: type)
        self.title = json["title"]?.stringValue
        self.detail = json["detail"]?.stringValue
        self.status = json["status"]?.intValue
        self.instance = json["instance"]?.stringValue
        self.code = json["code"]?.stringValue
        self.messages = try Representation.messages(json["messages"])
        self.links = try Representation.links(json["links"], keepingRawJSON: true)
        self.metadata = Representation.metadata(json["metadata"])
        var invalidFields: [InvalidField] = []
        for element in json["invalidFields"]?.arrayValue ?? [] {
            guard let name = element["name"]?.stringValue else { continue }
            invalidFields.append(InvalidField(name: name, reason: element["reason"]?.stringValue, detail: element["detail"]?.stringValue))
        }
        self.invalidFields = invalidFields
        self.error = json["error"]?.stringValue
        self.errorDescription = (json["error_description"] ?? json["errorDescription"])?.stringValue
        self.httpStatus = httpStatus
        self.raw = json
    }
}
