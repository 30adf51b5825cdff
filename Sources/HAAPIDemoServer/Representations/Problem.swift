/// An RFC 7807 problem with HAAPI's extra members (`application/problem+json`).
struct Problem: Encodable, Sendable, Error {
    var type: String
    var title: String
    var detail: String?
    var code: String?
    var error: String?
    var errorDescription: String?
    var invalidFields: [InvalidField]?
    var messages: [Message]?
    var links: [Link]?
    var metadata: RepresentationMetadata?
    /// The HTTP status; not encoded.
    var status: Int

    enum CodingKeys: String, CodingKey {
        case type, title, detail, code, error, invalidFields, messages, links, metadata
        case errorDescription = "error_description"
    }

    /// A field named by an `invalid-input` problem.
    struct InvalidField: Encodable, Sendable {
        var name: String
        var reason: String
        var detail: String
    }

    static let invalidInputType = "https://curity.se/problems/invalid-input"
    static let incorrectCredentialsType = "https://curity.se/problems/incorrect-credentials"
    static let authorizationType = "https://curity.se/problems/authorization"
    static let unexpectedType = "https://curity.se/problems/unexpected"

    /// `invalid-input` with the given fields (HTTP 400).
    static func invalidInput(_ fields: [InvalidField]) -> Problem {
        Problem(
            type: invalidInputType, title: "Form Errors", invalidFields: fields,
            metadata: RepresentationMetadata(viewName: nil, templateArea: "html1"), status: 400)
    }

    /// `incorrect-credentials` with messages (HTTP 400).
    static func incorrectCredentials(_ messages: [Message]) -> Problem {
        Problem(
            type: incorrectCredentialsType, title: "Incorrect credentials", messages: messages,
            metadata: RepresentationMetadata(viewName: nil, templateArea: "html1"), status: 400)
    }

    /// An OAuth error as a HAAPI `authorization` problem (the flow is over).
    static func authorization(error: String, description: String, status: Int = 400) -> Problem {
        Problem(type: authorizationType, title: "Authorization Error", error: error, errorDescription: description, status: status)
    }

    /// The generic `unexpected` problem.
    static func unexpected(code: String, title: String = "General Error", messages: [String], status: Int = 400, links: [Link]? = nil) -> Problem {
        Problem(
            type: unexpectedType, title: title, code: code, messages: messages.map(Message.error), links: links, status: status)
    }
}
