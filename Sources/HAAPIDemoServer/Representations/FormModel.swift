/// The model of a `form` action: where and how to submit, and the fields.
struct FormModel: Encodable, Sendable {
    var href: String
    var method: String
    var type: String?
    var actionTitle: String?
    var fields: [Field]?
    /// What follows a `continue-same-step` answer to this form ([IOSCS][UIKIT], notes 3.2).
    var continueActions: [Action]?

    static let urlEncoded = "application/x-www-form-urlencoded"
    static let json = "application/json"

    /// A GET form without fields (selector options, redirections, polls).
    static func get(_ href: String, actionTitle: String? = nil) -> FormModel {
        FormModel(href: href, method: "GET", actionTitle: actionTitle)
    }

    /// A JSON POST form (client operations whose result is a JSON value, such as WebAuthn credentials).
    static func postJSON(_ href: String, actionTitle: String? = nil, fields: [Field]) -> FormModel {
        FormModel(href: href, method: "POST", type: json, actionTitle: actionTitle, fields: fields)
    }

    /// A URL-encoded POST form.
    static func post(_ href: String, actionTitle: String? = nil, fields: [Field]? = nil, continueActions: [Action]? = nil) -> FormModel {
        FormModel(href: href, method: "POST", type: urlEncoded, actionTitle: actionTitle, fields: fields, continueActions: continueActions)
    }
}
