import Foundation

/// What an authorization code stands for; bound to client, redirect URI and PKCE challenge.
struct AuthorizationCode: Sendable {
    let clientID: String
    let redirectURI: String
    let codeChallenge: String
    let subject: String
    let scopes: [String]
    let nonce: String?
    let authTime: Date
    let expiresAt: Date
    /// RFC 7638 thumbprint of the DPoP key that ran the flow; enforced at the exchange only with
    /// ``DemoServerConfiguration/issueTokenBoundAuthorizationCodes``.
    let keyThumbprint: String
    /// The authorize request's `dpop_jkt`: the exchange must be proved with the key of this thumbprint (RFC 9449 §10).
    let dpopJKT: String?
}
