import HAAPI

/// Whose fact a stored fact is: the upstream's issuer and the client id, so that another server, or another client of
/// the same server (whose `issue-token-bound-authorization-code` is set per client), starts unknown.
package struct UpstreamFactKey: Sendable, Hashable, Codable {
    /// The upstream's issuer (its discovery's `issuer`, else `upstream.baseURL`).
    package let issuer: String
    /// The OAuth client id at the upstream.
    package let clientID: String

    init(issuer: String, clientID: String) {
        self.issuer = issuer
        self.clientID = clientID
    }

    /// The key of `client`'s upstream and client id.
    init(_ client: HAAPIClient) {
        self.init(issuer: client.endpoints.issuer ?? client.configuration.baseURL.absoluteString, clientID: client.configuration.clientID)
    }
}
