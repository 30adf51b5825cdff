/// The name an upstream form field has on the gateway's page. A field named like one of the gateway's own (`_csrf`)
/// is given a prefix on the page, so that it can never be taken for the gateway's (a visible upstream field named
/// `_csrf` would otherwise send the session's CSRF token upstream in place of what the person typed); so is a name that
/// already starts with the prefix, which keeps the renaming one-to-one. Other names (Curity's `_resume_nonce`, say)
/// stay as the upstream wrote them, for the browser's autofill.
enum PageFieldName {
    /// The names of the fields the gateway puts in its forms.
    static let gatewayNames: Set<String> = ["_csrf"]

    /// The prefix of a renamed field.
    static let prefix = "_upstream"

    /// The page's name of the upstream field `name`: one-to-one, and never a name of the gateway's.
    static func onPage(_ name: String) -> String {
        gatewayNames.contains(name) || name.hasPrefix(prefix) ? prefix + name : name
    }
}
