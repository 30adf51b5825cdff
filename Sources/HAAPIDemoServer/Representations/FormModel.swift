/// The model of a `form` action: where and how to submit, and the fields.
struct FormModel: Encodable, Sendable {
    var href: String
    var method: String
    var type: String?
    var actionTitle: String?
    var fields: [Field]?

    static let urlEncoded = "application/x-www-form-urlencoded"

    /// A GET form without fields (selector options, redirections, polls).
    static func get(_ href: String, actionTitle: String? = nil) -> FormModel {
        FormModel(href: href, method: "GET", actionTitle: actionTitle)
    }

    /// A URL-encoded POST form.
    static func post(_ href: String, actionTitle: String? = nil, fields: [Field]? = nil) -> FormModel {
        FormModel(href: href, method: "POST", type: urlEncoded, actionTitle: actionTitle, fields: fields)
    }
}
