import Foundation

/// The server-side record of an opaque access or refresh token.
struct IssuedToken: Sendable {
    enum Kind: Sendable { case access, refresh }

    let kind: Kind
    let clientID: String
    /// Nil for client_credentials tokens.
    let subject: String?
    let scopes: [String]
    /// The RFC 7638 thumbprint the token is bound to (`cnf.jkt`); nil for Bearer tokens.
    let keyThumbprint: String?
    let issuedAt: Date
    let expiresAt: Date
    /// Groups the tokens of one authorization grant (for rotation and revocation).
    let grantID: String
    let authTime: Date?
    let nonce: String?

    var tokenType: String { keyThumbprint == nil ? "Bearer" : "DPoP" }
}
