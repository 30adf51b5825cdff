/// The Curity Identity Server settings an operator changes when `doctor` finds a problem, named as Curity names them: the
/// Admin UI's section of a client (the labels of Curity's client configuration page, "Redirect URIs", "Client
/// Capabilities", "Client Authentication Method", "Scopes and Claims":
/// https://curity.io/docs/identity-server/profiles/token-profile/clients/client-config) and the configuration XML path
/// (Curity's configuration reference, https://curity.io/docs/identity-server/configuration-reference/, and the client of
/// Curity's own server-side HAAPI example, curityio/chatgpt-example-app `idsvr/curity-config-template.xml` [SRVCONF]).
/// docs/curity-setup.md walks through them.
enum CuritySetting {
    /// The configuration XML path of the client with id `clientID` in the token service profile.
    static func client(_ clientID: String) -> String {
        "profiles/profile{token-service}/settings/authorization-server/client-store/config-backed/client{\(clientID)}"
    }

    /// The Admin UI's place of a client's section.
    static func adminUI(_ clientID: String, _ section: String) -> String {
        "Token Service → Clients → \(clientID) → \(section)"
    }

    /// The OpenID Connect metadata switch of the token service ([OIDCMETA];
    /// …/authorization-server/openid-connect/expose-metadata).
    static let exposeMetadata = "profiles/profile{token-service}/settings/authorization-server/openid-connect/expose-metadata"

    /// The environment's base URL: the external URL Curity writes into the issuer, hrefs and metadata, and checks every
    /// DPoP proof's `htu` against ([SRVCLIENT]).
    static let baseURL = "environments/environment/base-url"

    /// The token issuer's signing key and algorithm (default RS256; EdDSA for Ed25519 and Ed448 keys, [EDDSA]).
    static let tokenSigning = "profiles/profile{token-service}/token-issuers/default-token-issuer/jwt-issuer-settings (algorithm, signing-key-id)"

    /// The HAAPI capability of a client that cannot attest, as Curity's own server-side client has it ([SRVCONF]).
    static func haapiWithoutAttestation(_ clientID: String) -> String {
        "\(client(clientID))/capabilities/haapi/allow-without-attestation = true (\(adminUI(clientID, "Client Capabilities: Hypermedia Authentication API, without attestation")))"
    }

    /// Where the client's authentication of `method` (the gateway's `upstream.clientAuthentication`) is set.
    static func clientAuthentication(_ clientID: String, method: String) -> String {
        let element: String
        switch method {
        case "secret-basic", "secret-post": element = "secret"
        case "secret-jwt": element = "symmetric-key"
        case "private-key-jwt": element = "asymmetric-key (or jwks, jwks-uri)"
        case "mtls": element = "mutual-tls"
        default: element = "no-authentication"
        }
        return "\(client(clientID))/\(element) (\(adminUI(clientID, "Client Authentication Method")))"
    }
}
