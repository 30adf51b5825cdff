/// An OAuth 2.0 error response (RFC 6749 §5.2, RFC 9449 §5 and §8).
struct OAuthError: Error, Sendable, CustomStringConvertible {
    /// The `error` code.
    let code: String
    /// The `error_description`; never contains secrets.
    let description: String
    let status: Int
    /// A `WWW-Authenticate` challenge (HTTP Basic failures).
    var wwwAuthenticate: String?

    static func invalidRequest(_ description: String) -> OAuthError { .init(code: "invalid_request", description: description, status: 400) }
    static func invalidClient(_ description: String, basicChallenge: Bool = false) -> OAuthError {
        .init(
            code: "invalid_client",
            description: description,
            status: 401,
            wwwAuthenticate: basicChallenge ? #"Basic realm="demo-server""# : nil
        )
    }
    static func invalidGrant(_ description: String) -> OAuthError { .init(code: "invalid_grant", description: description, status: 400) }
    static func unauthorizedClient(_ description: String) -> OAuthError { .init(code: "unauthorized_client", description: description, status: 400) }
    static func unsupportedGrantType(_ description: String) -> OAuthError {
        .init(code: "unsupported_grant_type", description: description, status: 400)
    }
    static func invalidScope(_ description: String) -> OAuthError { .init(code: "invalid_scope", description: description, status: 400) }
    static func invalidDPoPProof(_ description: String) -> OAuthError { .init(code: "invalid_dpop_proof", description: description, status: 400) }
    static let useDPoPNonce = OAuthError(code: "use_dpop_nonce", description: "Authorization server requires nonce in DPoP proof", status: 400)
}
