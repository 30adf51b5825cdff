/// How the demo refuses an authorize request whose `redirect_uri` the client has not registered. RFC 6749 §4.1.2.1 says
/// the server must not redirect to such a URI; how Curity answers it over HAAPI is not documented (notes 5).
public enum DemoRedirectURIRefusal: String, Sendable, CaseIterable {
    /// An `error-authorization-response` problem with `error` `invalid_request` and a description naming `redirect_uri`.
    /// The default.
    case errorAuthorizationResponse = "error-authorization-response"
    /// A problem of type `https://curity.se/problems/invalid-request` titled "Invalid request", naming no parameter: a
    /// server that says little. The type is the demo's, not taken from a Curity source.
    case invalidRequestProblem = "invalid-request-problem"
}
