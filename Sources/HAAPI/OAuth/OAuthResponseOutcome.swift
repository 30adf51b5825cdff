/// The answer of an OAuth endpoint other than the token endpoint's token requests (RFC 8628's device authorization
/// endpoint, say): its JSON object, or an OAuth error response. A value, not a thrown error.
public enum OAuthResponseOutcome: Sendable, Hashable {
    /// A 2xx answer with a JSON object.
    case json(JSONValue)
    /// The server refused with an OAuth error (RFC 6749 §5.2).
    case oauthError(OAuthErrorResponse)
}
