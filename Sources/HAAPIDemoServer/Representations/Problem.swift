/// An RFC 7807 problem with HAAPI's extra members (`application/problem+json`).
struct Problem: Encodable, Sendable, Error {
    var type: String
    var title: String
    var detail: String?
    var code: String?
    var error: String?
    var errorDescription: String?
    /// The issuer, on `error-authorization-response` (RFC 9207, [IOSPT][UIKIT]).
    var iss: String?
    var invalidFields: [InvalidField]?
    var messages: [Message]?
    var links: [Link]?
    var metadata: RepresentationMetadata?
    /// The HTTP status; not encoded.
    var status: Int

    enum CodingKeys: String, CodingKey {
        case type, title, detail, code, error, iss, invalidFields, messages, links, metadata
        case errorDescription = "error_description"
    }

    /// A field named by an `invalid-input` problem.
    struct InvalidField: Encodable, Sendable {
        var name: String
        var reason: String
        var detail: String
    }

    // Problem type URIs as Curity's SDKs name them ([IOSPT], [UIKIT], [ANDOLD]; notes 3.9); an OAuth error that ends the
    // flow is `error-authorization-response`.
    static let invalidInputType = "https://curity.se/problems/invalid-input"
    static let incorrectCredentialsType = "https://curity.se/problems/incorrect-credentials"
    static let authenticationFailedType = "https://curity.se/problems/authentication-failed"
    static let tooManyAttemptsType = "https://curity.se/problems/too-many-attempts"
    static let errorAuthorizationResponseType = "https://curity.se/problems/error-authorization-response"
    static let unexpectedType = "https://curity.se/problems/unexpected"
    /// The type of ``invalidRequest``: the demo's own, not taken from a Curity source (see ``DemoRedirectURIRefusal``).
    static let invalidRequestType = "https://curity.se/problems/invalid-request"

    /// A problem saying only that the request is invalid (HTTP 400), for ``DemoRedirectURIRefusal/invalidRequestProblem``.
    static let invalidRequest = Problem(type: invalidRequestType, title: "Invalid request", status: 400)

    /// `invalid-input` with the given fields (HTTP 400).
    static func invalidInput(_ fields: [InvalidField]) -> Problem {
        Problem(
            type: invalidInputType,
            title: "Form Errors",
            invalidFields: fields,
            metadata: RepresentationMetadata(viewName: nil, templateArea: "html1"),
            status: 400
        )
    }

    /// `incorrect-credentials` with messages (HTTP 400).
    static func incorrectCredentials(_ messages: [Message]) -> Problem {
        inputProblem(incorrectCredentialsType, title: "Incorrect credentials", messages: messages)
    }

    /// `authentication-failed` with messages (HTTP 400): an input error, the step stays valid ([UIKIT]).
    static func authenticationFailed(_ messages: [Message]) -> Problem {
        inputProblem(authenticationFailedType, title: "Authentication failed", messages: messages)
    }

    /// `too-many-attempts` with messages (HTTP 400): an input error, the step stays valid ([UIKIT]).
    static func tooManyAttempts(_ messages: [Message]) -> Problem {
        inputProblem(tooManyAttemptsType, title: "Too many attempts", messages: messages)
    }

    /// An input problem with messages, as the HTML form authenticator's answers have it (HTTP 400).
    private static func inputProblem(_ type: String, title: String, messages: [Message]) -> Problem {
        Problem(type: type, title: title, messages: messages, metadata: RepresentationMetadata(viewName: nil, templateArea: "html1"), status: 400)
    }

    /// An OAuth error as a HAAPI `error-authorization-response` problem with `error`, `error_description` and the
    /// issuer in `iss` ([IOSPT][UIKIT][ANDOLD]); the flow is over.
    static func errorAuthorizationResponse(error: String, description: String, issuer: String, status: Int = 400) -> Problem {
        Problem(
            type: errorAuthorizationResponseType,
            title: "Authorization Error",
            error: error,
            errorDescription: description,
            iss: issuer,
            status: status
        )
    }

    /// The generic `unexpected` problem.
    static func unexpected(code: String, title: String = "General Error", messages: [String], status: Int = 400, links: [Link]? = nil) -> Problem {
        Problem(
            type: unexpectedType,
            title: title,
            code: code,
            messages: messages.map(Message.error),
            links: links,
            status: status
        )
    }
}
