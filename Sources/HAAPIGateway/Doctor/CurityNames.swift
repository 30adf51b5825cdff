/// Every Curity name `doctor` prints and docs/curity-setup.md and docs/curity-compatibility.md write, each with the Curity
/// page or file that states it. `doctor` takes its names from here (through ``CuritySetting``), and a test fails when
/// those documents name a Curity setting, error or problem type this table lacks.
enum CurityNames {
    // MARK: Sources

    private static let configurationReference = "https://curity.io/docs/identity-server/configuration-reference"
    private static let authorizationServerReference =
        "\(configurationReference)/profiles/profile/settings/authorization-server"
    private static let clientReference = "\(authorizationServerReference)/client-store/config-backed/client"
    private static let verifierReference = "\(clientReference)/verifier"
    private static let serverSideExample =
        "curityio/chatgpt-example-app idsvr/curity-config-template.xml and idsvr/curity-scenario-config-template.xml"
    private static let serverSideClient = "curityio/chatgpt-example-app mcp-server/src/haapi/haapiAuthorizer.ts"
    private static let configureClient = "https://curity.io/resources/learn/configure-client/"
    private static let configureClientEarlier = "https://curity.io/resources/tutorials/getting-started/configure-client/"
    private static let dpopAndNonces =
        "https://curity.io/docs/identity-server/developer-guide/haapi-sdks/concepts/dpop-and-nonces"
    private static let upgrade71 = "https://www.curity.io/docs/idsvr/latest/system-admin-guide/upgrade/7_0_X_to_7_1_0.html"
    private static let tokenBinding = "https://curity.io/docs/identity-server/developer-guide/haapi-sdks/concepts/token-binding"
    private static let clientDPoP = "https://curity.io/docs/identity-server/profiles/token-profile/clients/client-config/dpop"
    private static let ephemeralClientDPoPReference = "\(authorizationServerReference)/ephemeral-client/dpop"
    private static let mutualTLSReference = "\(authorizationServerReference)/client-authentication/mutual-tls"
    private static let clientMigration = "curityio/database-client-migration-example src/data/configurationClient.ts"
    private static let openIDConnect = "https://curity.io/docs/identity-server/profiles/token-profile/configuration/openid-connect"
    private static let openIDConnectMetadataReference = "\(authorizationServerReference)/openid-connect/expose-metadata"
    private static let oauthMetadataReference = "\(authorizationServerReference)/expose-metadata"
    private static let metadataEndpointReference = "\(authorizationServerReference)/expose-metadata/authorize-endpoint"
    private static let jwks = "https://curity.io/docs/identity-server/profiles/token-profile/lifecycle/token-profile-metadata/jwks"
    private static let environmentReference = "\(configurationReference)/environments/environment/"
    private static let authenticationServiceBaseURL =
        "\(configurationReference)/profiles/profile/settings/authentication-service/base-url"
    private static let jwtIssuerReference =
        "\(configurationReference)/profiles/profile/token-issuers/default-token-issuer/jwt-issuer-settings"
    private static let scopeReference = "\(authorizationServerReference)/scopes/scope"
    private static let scopesPage = "https://curity.io/docs/identity-server/profiles/token-profile/scopes-and-claims/scopes"
    private static let problemTypes = "curityio/ui-kit src/haapi-react-app/src/haapi-react-sdk/ haapi-step.types.ts (HAAPI_PROBLEM_STEPS)"
    private static let tokenBindingExample = "curityio/mobile-deployments haapi/example-config-template.xml"

    // MARK: Where things are

    /// The token service profile, by the id Curity's examples give it; the configuration reference's key is
    /// `profile{id, type}`, so an operator's profile may have another id.
    static let tokenServiceProfile = CurityName("profiles/profile{token-service}", .settingPath, source: serverSideExample)
    /// The id Curity's examples give the token service profile.
    static let tokenServiceID = CurityName("token-service", .settingValue, source: serverSideExample)
    /// The token service's endpoints, each with a kind.
    static let endpoints = CurityName("endpoints/endpoint", .settingPath, source: serverSideExample)
    /// The kind of the anonymous endpoint, whose URL is the issuer.
    static let anonymousEndpointKind = CurityName("oauth-anonymous", .settingValue, source: serverSideExample)
    /// The anonymous endpoint's path in every Curity example (no Curity page calls it a default).
    static let anonymousEndpointExamplePath = CurityName("/oauth/v2/oauth-anonymous", .examplePath, source: serverSideExample)
    /// The issuer the server-side example's API requires.
    static let requiredIssuer = CurityName("required-issuer", .settingPath, source: serverSideExample)
    /// The environment's external URL: "The external base URL used to contact this machine".
    static let environmentBaseURL = CurityName("environments/environment/base-url", .settingPath, source: environmentReference)
    /// The authentication service's own base URLs (not the token service's), chosen by `X-Forwarded-Host` or `Host`.
    static let additionalBaseURL = CurityName("additional-base-url", .settingPath, source: authenticationServiceBaseURL)
    /// The authorization server settings of a token profile.
    static let authorizationServer = CurityName("settings/authorization-server", .settingPath, source: authorizationServerReference)
    /// "Override the issuer for tokens issued by this authorization server".
    static let issuerOverride = CurityName("issuer-override", .settingPath, source: authorizationServerReference)
    /// Refresh tokens kept on a refresh (default false: rotated).
    static let reuseRefreshTokens = CurityName("reuse-refresh-tokens", .settingPath, source: authorizationServerReference)
    /// The delegation revoked when a *public* client reuses a refresh token (default true).
    static let revokeDelegationForPublicClients = CurityName(
        "revoke-delegation-for-public-clients-reusing-refresh-token",
        .settingPath,
        source: authorizationServerReference
    )

    // MARK: Metadata

    /// The OpenID Connect metadata switch, under the authorization server settings.
    static let openIDConnectMetadata = CurityName("openid-connect/expose-metadata", .settingPath, source: openIDConnectMetadataReference)
    /// Where Curity serves the OpenID Connect metadata: "/.well-known/openid-configuration under the anonymous endpoint".
    static let openIDConnectMetadataPath = CurityName("/.well-known/openid-configuration", .examplePath, source: openIDConnect)
    /// The RFC 8414 metadata switch, under the authorization server settings.
    static let oauthMetadata = CurityName("expose-metadata", .settingPath, source: oauthMetadataReference)
    /// The JWKS URL the metadata names instead of the one derived "from the first anonymous endpoint".
    static let jwksURIOverride = CurityName("jwks-uri-override", .settingPath, source: openIDConnectMetadataReference)
    /// The token endpoint the metadata names, when several are deployed, with its own external base URL ("The external
    /// base URL to report for this endpoint"; each endpoint kind under both metadata switches has one).
    static let metadataTokenEndpointBaseURL = CurityName("token-endpoint/base-url", .settingPath, source: metadataEndpointReference)
    /// The same for the authorize endpoint.
    static let metadataAuthorizeEndpointBaseURL = CurityName(
        "authorize-endpoint/base-url",
        .settingPath,
        source: metadataEndpointReference
    )
    /// Where the JWKS is served: under the anonymous endpoint.
    static let jwksPath = CurityName("<anonymous endpoint>/jwks", .examplePath, source: jwks)

    // MARK: ID tokens

    /// The token issuer's settings (`algorithm`, default RS256; `signing-key-id`).
    static let jwtIssuerSettings = CurityName(
        "token-issuers/default-token-issuer/jwt-issuer-settings",
        .settingPath,
        source: jwtIssuerReference
    )
    /// The token issuer's signing key, a key of `facilities/crypto/signing-keys`.
    static let signingKeyID = CurityName("signing-key-id", .settingPath, source: jwtIssuerReference)
    /// The signing keys the token issuer's key is one of.
    static let signingKeys = CurityName("facilities/crypto/signing-keys", .settingPath, source: jwtIssuerReference)

    // MARK: The client

    /// A client of the token service, keyed by its id.
    static let client = CurityName("settings/authorization-server/client-store/config-backed/client", .settingPath, source: clientReference)
    /// The client's redirect URIs.
    static let redirectURIs = CurityName("redirect-uris", .settingPath, source: clientReference)
    /// The client's scopes; each must be configured in the profile first (``scopesDefinedInProfile``).
    static let scope = CurityName("scope", .settingPath, source: clientReference)
    /// Scopes are strings or prefixes (`is-prefix`), and one may be left out of the metadata (`expose-in-metadata`,
    /// default true).
    static let profileScope = CurityName("scopes/scope", .settingPath, source: scopeReference)
    /// "Scopes must be configured in the Authorization Server profile before clients can request them".
    static let scopesDefinedInProfile = CurityName("scopes", .settingPath, source: scopesPage)
    /// A scope that may be left out of `scopes_supported`.
    static let exposeInMetadata = CurityName("expose-in-metadata", .settingPath, source: scopeReference)
    /// A prefix scope: any value that starts with it.
    static let isPrefix = CurityName("is-prefix", .settingPath, source: scopeReference)
    /// The code flow capability.
    static let codeCapability = CurityName("capabilities/code", .settingPath, source: clientReference)
    /// The HAAPI capability.
    static let haapiCapability = CurityName("capabilities/haapi", .settingPath, source: serverSideExample)
    /// HAAPI for a client that cannot attest, as Curity's own server-side client has it.
    static let allowWithoutAttestation = CurityName("allow-without-attestation", .settingPath, source: serverSideExample)
    /// Nonce-based DPoP "is enabled when the HAAPI client's use-legacy-dpop setting is false".
    static let useLegacyDPoP = CurityName("use-legacy-dpop", .settingPath, source: dpopAndNonces)
    /// Token-bound authorization codes ("Setting this requires use-legacy-dpop to be false").
    static let tokenBoundCodes = CurityName("issue-token-bound-authorization-code", .settingPath, source: tokenBinding)
    /// The client's authenticators.
    static let allowedAuthenticators = CurityName("user-authentication/allowed-authenticators", .settingPath, source: serverSideExample)
    /// The HAAPI scope a HAAPI token is asked with.
    static let haapiScope = CurityName("urn:se:curity:scopes:haapi", .scope, source: serverSideClient)

    // MARK: The client's authentication

    /// Client authentication by secret (basic or post).
    static let secret = CurityName("secret", .settingPath, source: verifierReference)
    /// A symmetric key: client_secret_jwt.
    static let symmetricKey = CurityName("symmetric-key", .settingPath, source: verifierReference)
    /// An asymmetric key: private_key_jwt.
    static let asymmetricKey = CurityName("asymmetric-key", .settingPath, source: verifierReference)
    /// A JWK set: private_key_jwt.
    static let jwksKeys = CurityName("jwks", .settingPath, source: verifierReference)
    /// A JWK set by URL: private_key_jwt.
    static let jwksURI = CurityName("jwks-uri", .settingPath, source: verifierReference)
    /// Mutual TLS made with Curity itself.
    static let mutualTLS = CurityName("mutual-tls", .settingPath, source: verifierReference)
    /// Mutual TLS ended at a proxy that forwards the client's certificate: a config-backed client's authentication
    /// method beside `mutual-tls` in Curity's client migration tool.
    static let mutualTLSByProxy = CurityName(
        "mutual-tls-by-proxy",
        .settingPath,
        source: clientMigration,
        caveat: "how the proxy forwards the certificate is set in the profile's client-authentication/mutual-tls/by-proxy"
    )
    /// The profile's switch that lets mutual TLS "be terminated in a proxy instead of directly within the identity
    /// server".
    static let mutualTLSByProxySettings = CurityName(
        "settings/authorization-server/client-authentication/mutual-tls/by-proxy",
        .settingPath,
        source: mutualTLSReference,
        caveat: "the page read names the section, not its settings (such as the header the certificate comes in)"
    )
    /// A service role's mutual TLS: the client truststores Curity asks for certificates of.
    static let serviceRoleMutualTLS = CurityName(
        "environments/environment/services/service-role{id}/mutual-tls",
        .settingPath,
        source: "\(configurationReference)/environments/environment/services/service-role/mutual-tls"
    )
    /// No client authentication (a public client).
    static let noAuthentication = CurityName("no-authentication", .settingPath, source: verifierReference)

    // MARK: DPoP for every client (Curity 11.4)

    /// The ephemeral clients' DPoP policy, each option overriding "the corresponding profile-wide dpop default".
    static let ephemeralClientDPoP = CurityName(
        "/profiles/profile/settings/authorization-server/ephemeral-client/dpop",
        .settingPath,
        source: ephemeralClientDPoPReference
    )
    /// Whether an authorization code must be DPoP-bound (`required`: the authorize request must carry `dpop_jkt`).
    static let authorizationCodeDPoPBinding = CurityName(
        "authorization-code-dpop-binding",
        .settingPath,
        source: ephemeralClientDPoPReference,
        caveat: "the per-client and profile-wide places of this setting were not found in the configuration reference read; see \(clientDPoP)"
    )
    /// Whether a token request must carry a valid DPoP proof.
    static let tokenDPoPBinding = CurityName(
        "token-dpop-binding",
        .settingPath,
        source: ephemeralClientDPoPReference,
        caveat: "the per-client and profile-wide places of this setting were not found in the configuration reference read; see \(clientDPoP)"
    )
    /// Which tokens a public client gets DPoP-bound.
    static let publicClientTokensToBindWithDPoP = CurityName(
        "public-client-tokens-to-bind-with-dpop",
        .settingPath,
        source: ephemeralClientDPoPReference
    )
    /// A DPoP binding that must be there.
    static let dpopRequired = CurityName("required", .settingValue, source: ephemeralClientDPoPReference)
    /// A DPoP binding made only when the client asks for it.
    static let dpopClientRequested = CurityName("client-requested", .settingValue, source: ephemeralClientDPoPReference)
    /// A public client's refresh token bound with DPoP, its access token not.
    static let dpopRefreshTokenOnly = CurityName("refresh-token-only", .settingValue, source: ephemeralClientDPoPReference)
    /// An ephemeral client's option left to the profile-wide default.
    static let dpopInheritFromProfile = CurityName("inherit-from-profile", .settingValue, source: ephemeralClientDPoPReference)

    // MARK: The Admin UI

    /// Where clients are in Curity's current Admin UI: "From the sidebar menu select OAuth & OpenID Connect -> Clients".
    static let clientsMenu = CurityName("OAuth & OpenID Connect → Clients", .adminUIPlace, source: configureClient)
    /// Where clients were in older Admin UIs: "Visit the Profiles screen and click the Token Service. On the left select
    /// Clients".
    static let olderClientsMenu = CurityName("Profiles → Token Service → Clients", .adminUIPlace, source: configureClientEarlier)
    /// A client's Overview panel.
    static let overviewPanel = CurityName("Overview", .adminUIPlace, source: configureClient)
    /// The Overview panel's Capabilities box, where a capability is added.
    static let capabilitiesBox = CurityName("Capabilities", .adminUIPlace, source: configureClient)
    /// The Overview panel's Authorization box, where scopes are added.
    static let authorizationBox = CurityName("Authorization", .adminUIPlace, source: configureClient)
    /// The Code Flow capability.
    static let codeFlow = CurityName("Code Flow", .adminUIPlace, source: configureClient)
    /// The capability's Redirect URI step.
    static let redirectURIStep = CurityName("Redirect URI", .adminUIPlace, source: configureClient)
    /// The capability's Client Authentication step.
    static let clientAuthenticationStep = CurityName("Client Authentication", .adminUIPlace, source: configureClient)
    /// The capability's User Authentication step.
    static let userAuthenticationStep = CurityName("User Authentication", .adminUIPlace, source: configureClient)

    // MARK: Errors and headers

    /// A proof's nonce missing or stale: the answer carries a fresh `DPoP-Nonce`, and the client retries with it.
    static let useDPoPNonce = CurityName("use_dpop_nonce", .error, source: dpopAndNonces)
    /// A refused DPoP proof (a token-bound code exchanged without one is refused so).
    static let invalidDPoPProof = CurityName("invalid_dpop_proof", .error, source: tokenBinding)
    /// The response header a DPoP nonce comes in.
    static let dpopNonceHeader = CurityName("DPoP-Nonce", .header, source: dpopAndNonces)
    /// The Admin UI's default for new clients was nonces (`use-legacy-dpop` false) before 8.0 made it every client's.
    static let legacyDPoPAdminUIDefault = CurityName("use-legacy-dpop", .settingPath, source: upgrade71)
    /// Token-bound codes in Curity's mobile example configuration.
    static let tokenBoundCodesExample = CurityName("haapi/issue-token-bound-authorization-code", .settingPath, source: tokenBindingExample)

    // MARK: Problem types

    /// The HAAPI problem types of Curity's React SDK.
    static let problemTypeNames: [CurityName] = [
        "invalid-input", "incorrect-credentials", "authentication-failed", "too-many-attempts", "error-authorization-response",
        "mismatch-between-session-and-access-token", "generic-user-error", "unexpected",
    ].map { CurityName("https://curity.se/problems/\($0)", .problemType, source: problemTypes) }

    // MARK: The table

    /// Every entry.
    static let all: [CurityName] =
        [
            tokenServiceProfile, tokenServiceID, endpoints, anonymousEndpointKind, anonymousEndpointExamplePath, requiredIssuer,
            environmentBaseURL, additionalBaseURL, authorizationServer, issuerOverride, reuseRefreshTokens,
            revokeDelegationForPublicClients, openIDConnectMetadata, openIDConnectMetadataPath, oauthMetadata, jwksURIOverride,
            metadataTokenEndpointBaseURL, metadataAuthorizeEndpointBaseURL, jwksPath, jwtIssuerSettings, signingKeyID, signingKeys,
            client, redirectURIs, scope, profileScope, scopesDefinedInProfile, exposeInMetadata, isPrefix, codeCapability,
            haapiCapability, allowWithoutAttestation, useLegacyDPoP, tokenBoundCodes, allowedAuthenticators, haapiScope, secret,
            symmetricKey, asymmetricKey, jwksKeys, jwksURI, mutualTLS, mutualTLSByProxy, mutualTLSByProxySettings, serviceRoleMutualTLS,
            noAuthentication, ephemeralClientDPoP, authorizationCodeDPoPBinding, tokenDPoPBinding,
            publicClientTokensToBindWithDPoP, dpopRequired, dpopClientRequested, dpopRefreshTokenOnly, dpopInheritFromProfile, clientsMenu,
            olderClientsMenu, overviewPanel, capabilitiesBox, authorizationBox, codeFlow, redirectURIStep,
            clientAuthenticationStep, userAuthenticationStep, useDPoPNonce, invalidDPoPProof, dpopNonceHeader,
            legacyDPoPAdminUIDefault, tokenBoundCodesExample,
        ] + problemTypeNames

    /// Every element of every configuration path and every value in the table: what a path or a kebab-case name written
    /// in the documents must be made of.
    static let knownSegments: Set<String> = Set(all.flatMap(\.segments))

    /// Every name of `kind` in the table.
    static func names(of kind: CurityNameKind) -> Set<String> { Set(all.filter { $0.kind == kind }.map(\.name)) }
}
