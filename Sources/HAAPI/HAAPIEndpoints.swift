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
    /// The algorithms the server says it signs ID tokens with (discovery's `id_token_signing_alg_values_supported`);
    /// empty when not known (explicit endpoints, or a document without the member).
    public var idTokenSigningAlgorithms: [String]
    /// The scopes the server says it defines (discovery's `scopes_supported`); empty when not known.
    public var scopesSupported: [String]
    /// The metadata document these endpoints were read from (OpenID Connect discovery's, or RFC 8414's when the server
    /// publishes only that); nil when they were named.
    public var metadataDocument: URL?

    /// Creates endpoints.
    /// - Parameters:
    ///   - authorization: The authorization endpoint.
    ///   - token: The token endpoint.
    ///   - revocation: The revocation endpoint.
    ///   - issuer: The issuer identifier.
    ///   - keySet: The JWK Set URL (`jwks_uri`).
    ///   - userinfo: The userinfo endpoint.
    ///   - idTokenSigningAlgorithms: The ID-token signing algorithms the server names.
    ///   - scopesSupported: The scopes the server names.
    ///   - metadataDocument: The metadata document they were read from.
    public init(
        authorization: URL,
        token: URL,
        revocation: URL? = nil,
        issuer: String? = nil,
        keySet: URL? = nil,
        userinfo: URL? = nil,
        idTokenSigningAlgorithms: [String] = [],
        scopesSupported: [String] = [],
        metadataDocument: URL? = nil
    ) {
        self.authorization = authorization
        self.token = token
        self.revocation = revocation
        self.issuer = issuer
        self.keySet = keySet
        self.userinfo = userinfo
        self.idTokenSigningAlgorithms = idTokenSigningAlgorithms
        self.scopesSupported = scopesSupported
        self.metadataDocument = metadataDocument
    }

    /// The endpoints given, by name, in a stable order (authorization, token, revocation, jwks, userinfo).
    public var named: [(name: String, url: URL)] {
        [("authorization", authorization), ("token", token)]
            + [("revocation", revocation), ("jwks", keySet), ("userinfo", userinfo)]
            .compactMap { name, url in url.map { (name, $0) } }
    }
}
