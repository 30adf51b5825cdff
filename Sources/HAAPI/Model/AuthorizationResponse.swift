/// The properties of an `oauth-authorization-response` step: the end of a login flow.
///
/// The ``code`` is a secret: never log it.
public struct AuthorizationResponse: Sendable, Hashable {
    /// The authorization code (nil when the server sent none, e.g. with `response_type` other than `code`).
    public let code: String?
    /// The `state` as returned.
    public let state: String?
    /// The issuer (RFC 9207), if sent.
    public let issuer: String?
    /// An ID token, if sent directly.
    public let idToken: String?
    /// The granted scope, if sent.
    public let scope: String?
    /// The OIDC session state, if sent.
    public let sessionState: String?

    /// Creates an authorization response.
    /// - Parameters:
    ///   - code: The authorization code.
    ///   - state: The returned state.
    ///   - issuer: The issuer.
    ///   - idToken: An ID token.
    ///   - scope: The scope.
    ///   - sessionState: The session state.
    public init(code: String?, state: String?, issuer: String? = nil, idToken: String? = nil, scope: String? = nil, sessionState: String? = nil) {
        self.code = code
        self.state = state
        self.issuer = issuer
        self.idToken = idToken
        self.scope = scope
        self.sessionState = sessionState
    }

    /// Decodes the properties of the step.
    /// - Parameter json: The `properties` object.
    public init(json: JSONValue?) {
        self.init(
            code: json?["code"]?.stringValue,
            state: json?["state"]?.stringValue,
            issuer: json?["iss"]?.stringValue,
            idToken: json?["id_token"]?.stringValue,
            scope: json?["scope"]?.stringValue,
            sessionState: json?["session_state"]?.stringValue
        )
    }
}
