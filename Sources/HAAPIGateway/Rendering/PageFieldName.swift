/// The name an upstream form field has on the gateway's page. The gateway's own fields (`_csrf`) start with an
/// underscore; an upstream name that does too is given a prefix on the page, so that it can never be taken for the
/// gateway's (a visible upstream field named `_csrf` would otherwise send the session's CSRF token upstream in place of
/// what the person typed). Other names stay as the upstream wrote them, for the browser's autofill.
enum PageFieldName {
    /// The prefix of a page name whose upstream name starts with an underscore.
    static let upstreamPrefix = "_upstream"

    /// The page's name of the upstream field `name`: one-to-one, and never a name of the gateway's.
    static func onPage(_ name: String) -> String {
        name.hasPrefix("_") ? upstreamPrefix + name : name
    }
}
