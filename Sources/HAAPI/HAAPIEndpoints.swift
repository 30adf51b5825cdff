import Foundation

/// The OAuth endpoints used by the client.
public struct HAAPIEndpoints: Sendable, Hashable {
    /// The authorization endpoint (HAAPI flows start here).
    public var authorization: URL
    /// The token endpoint.
    public var token: URL
    /// The revocation endpoint (RFC 7009), if any.
    public var revocation: URL?
    /// The issuer identifier, used to check `iss` in authorization responses and ID tokens.
    public var issuer: String?
    /// Where the upstream publishes its signature keys (`jwks_uri`), used to validate ID tokens.
    public var keySet: URL?
    /// The OpenID Connect userinfo endpoint (`userinfo_endpoint`), if any.
    public var userinfo: URL?

    /// Creates endpoints.
    /// - Parameters:
    ///   - authorization: The authorization endpoint.
    ///   - token: The token endpoint.
    ///   - revocation: The revocation endpoint.
    ///   - issuer: The issuer identifier.
    ///   - keySet: The JWK Set URL (`jwks_uri`).
    ///   - userinfo: The userinfo endpoint.
    public init(authorization: URL, token: URL, revocation: URL? = nil, issuer: String? = nil, keySet: URL? = nil, userinfo: URL? = nil) {
        self.authorization = authorization
        self.token = token
        self.revocation = revocation
        self.issuer = issuer
        self.keySet = keySet
        self.userinfo = userinfo
    }
}
