import Foundation

/// The OAuth endpoints used by the client.
public struct HAAPIEndpoints: Sendable, Hashable {
    /// The authorization endpoint (HAAPI flows start here).
    public var authorization: URL
    /// The token endpoint.
    public var token: URL
    /// The revocation endpoint (RFC 7009), if any.
    public var revocation: URL?
    /// The issuer identifier, used to check `iss` in authorization responses.
    public var issuer: String?

    /// Creates endpoints.
    /// - Parameters:
    ///   - authorization: The authorization endpoint.
    ///   - token: The token endpoint.
    ///   - revocation: The revocation endpoint.
    ///   - issuer: The issuer identifier.
    public init(authorization: URL, token: URL, revocation: URL? = nil, issuer: String? = nil) {
        self.authorization = authorization
        self.token = token
        self.revocation = revocation
        self.issuer = issuer
    }
}
