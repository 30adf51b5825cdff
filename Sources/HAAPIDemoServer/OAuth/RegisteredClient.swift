/// The one OAuth client the demo server knows.
struct RegisteredClient: Sendable {
    let clientID: String
    let secret: String
    let redirectURIs: Set<String>
    let scopes: Set<String>
    /// Scopes the client may request with client_credentials.
    let clientCredentialsScopes: Set<String>
    let displayName: String

    /// The HAAPI scope for the authentication API token.
    static let haapiScope = "urn:se:curity:scopes:haapi"

    /// `demo-gateway` / `demo-secret`, redirect URI `haapi:start`, scopes `openid profile email`.
    static let demoGateway = RegisteredClient(
        clientID: "demo-gateway",
        secret: "demo-secret",
        redirectURIs: ["haapi:start"],
        scopes: ["openid", "profile", "email"],
        clientCredentialsScopes: [haapiScope],
        displayName: "HAAPI Gateway (demo client)"
    )

    /// The same client with another secret (``DemoServerConfiguration/clientSecret``).
    func with(secret: String) -> RegisteredClient {
        RegisteredClient(
            clientID: clientID,
            secret: secret,
            redirectURIs: redirectURIs,
            scopes: scopes,
            clientCredentialsScopes: clientCredentialsScopes,
            displayName: displayName
        )
    }
}
