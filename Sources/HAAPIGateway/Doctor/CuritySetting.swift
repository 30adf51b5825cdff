/// The Curity Identity Server settings an operator changes when `doctor` finds a problem, named as Curity names them,
/// each with the Curity page or file it comes from (docs/curity-setup.md lists them under *Sources*):
/// - configuration XML paths from Curity's configuration reference
///   (https://curity.io/docs/identity-server/configuration-reference/), which writes a profile's key as
///   `profile{id, type}`; the paths here use `token-service`, the id Curity's examples give the token service profile
///   (curityio/chatgpt-example-app `idsvr/curity-config-template.xml`, [SRVCONF]): an operator's profile may have another;
/// - the Admin UI's way to a client from Curity's current guide, "OAuth & OpenID Connect -> Clients"
///   (https://curity.io/resources/learn/configure-client/), with the older "Profiles → Token Service → Clients" beside
///   it, and the client's settings by the names of Curity's client configuration page ("Redirect URIs", "Client
///   Capabilities", "Client Authentication Method", "Scopes and Claims":
///   https://curity.io/docs/identity-server/profiles/token-profile/clients/client-config).
enum CuritySetting {
    /// The token service profile, as Curity's examples name it ([SRVCONF]); the configuration reference's key is
    /// `profile{id, type}`.
    static let tokenServiceProfile = "profiles/profile{token-service}"

    /// The configuration XML path of the client with id `clientID` in the token service profile ([CLIENTREF]).
    static func client(_ clientID: String) -> String {
        "\(tokenServiceProfile)/settings/authorization-server/client-store/config-backed/client{\(clientID)}"
    }

    /// Where a client's setting is in the Admin UI: Curity's current guide's way, then the older one.
    static func adminUI(_ clientID: String, _ setting: String) -> String {
        "Admin UI: OAuth & OpenID Connect → Clients → \(clientID) → \(setting); older Admin UIs: Profiles → Token Service → Clients"
    }

    /// The OpenID Connect metadata switch of the token service ([EXPOSE]).
    static let exposeMetadata = "\(tokenServiceProfile)/settings/authorization-server/openid-connect/expose-metadata"

    /// The RFC 8414 metadata switch of the token service, which publishes
    /// `/.well-known/oauth-authorization-server/<issuer path>` ([ASMETA], [ASEXPOSE]).
    static let exposeOAuthMetadata = "\(tokenServiceProfile)/settings/authorization-server/expose-metadata"

    /// The token service's issuer when it is not the anonymous endpoint's URL ([ASREF]: "Override the issuer for tokens
    /// issued by this authorization server").
    static let issuerOverride = "\(tokenServiceProfile)/settings/authorization-server/issuer-override"

    /// The environment's base URL: the external URL Curity writes into its issuer, hrefs and metadata ([BASEURL]).
    static let baseURL = "environments/environment/base-url"

    /// The token issuer's signing key and algorithm (default RS256; EdDSA for Ed25519 and Ed448 keys, [JWTISSUER],
    /// [EDDSA]).
    static let tokenSigning = "\(tokenServiceProfile)/token-issuers/default-token-issuer/jwt-issuer-settings (algorithm, signing-key-id)"

    /// The client's HAAPI capability ([SRVCONF], [CLIENTREF]).
    static func haapiCapability(_ clientID: String) -> String { "\(client(clientID))/capabilities/haapi" }

    /// The HAAPI capability of a client that cannot attest, as Curity's own server-side client has it ([SRVCONF]).
    /// Curity publishes no Admin UI label for this switch, so none is given.
    static func haapiWithoutAttestation(_ clientID: String) -> String {
        "\(haapiCapability(clientID))/allow-without-attestation = true"
    }

    /// The DPoP nonce switch of the client's HAAPI capability: false (nonces) is the default since 8.0 ([DPOPNONCE],
    /// [UPG80]).
    static func useLegacyDPoP(_ clientID: String) -> String { "\(haapiCapability(clientID))/use-legacy-dpop" }

    /// Token-bound authorization codes; they require `use-legacy-dpop` false ([TOKENBIND]).
    static func tokenBoundCodes(_ clientID: String) -> String { "\(haapiCapability(clientID))/issue-token-bound-authorization-code" }

    /// Where the client's authentication of `method` (the gateway's `upstream.clientAuthentication`) is set ([VERIFIER]).
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
