/// The Curity Identity Server settings an operator changes when `doctor` finds a problem, as texts `doctor` prints. Every
/// Curity name in them comes from ``CurityNames``, which carries the page or file each is stated on:
/// - configuration paths as Curity's configuration reference writes them (a profile's key is `profile{id, type}`); the
///   paths here use `token-service`, the id Curity's examples give the token service profile, so an operator's profile
///   may have another;
/// - the Admin UI's way to a client from Curity's current "Configure a Client" guide (OAuth & OpenID Connect → Clients,
///   then the client's Overview panel: its Capabilities box, each capability's steps, its Authorization box), with the
///   older "Profiles → Token Service → Clients" beside it. Where no Curity source names an Admin UI place (the HAAPI
///   capability's switches), none is given.
enum CuritySetting {
    /// The token service profile, as Curity's examples name it.
    static let tokenServiceProfile = CurityNames.tokenServiceProfile.name

    /// A path under the token service profile.
    static func inProfile(_ name: CurityName) -> String { "\(tokenServiceProfile)/\(name)" }

    /// The configuration path of the client with id `clientID` in the token service profile.
    static func client(_ clientID: String) -> String { "\(inProfile(CurityNames.client)){\(clientID)}" }

    /// A path under the client with id `clientID`.
    static func client(_ clientID: String, _ name: CurityName) -> String { "\(client(clientID))/\(name)" }

    /// Where a client's setting is in the Admin UI: Curity's current guide's way through the client's Overview panel
    /// (`places`, outermost first), then the older way to the client.
    static func adminUI(_ clientID: String, _ places: [CurityName]) -> String {
        let way = ([CurityNames.clientsMenu.name, clientID, CurityNames.overviewPanel.name] + places.map(\.name)).joined(separator: " → ")
        return "Admin UI: \(way); older Admin UIs: \(CurityNames.olderClientsMenu)"
    }

    /// The Admin UI place of the client's redirect URIs: a step of its Code Flow capability.
    static let redirectURIPlaces = [CurityNames.capabilitiesBox, CurityNames.codeFlow, CurityNames.redirectURIStep]
    /// The Admin UI place of the client's authentication: a step of its Code Flow capability.
    static let clientAuthenticationPlaces = [CurityNames.capabilitiesBox, CurityNames.codeFlow, CurityNames.clientAuthenticationStep]
    /// The Admin UI place of the client's scopes.
    static let scopePlaces = [CurityNames.authorizationBox]
    /// The Admin UI place of the client's capabilities.
    static let capabilityPlaces = [CurityNames.capabilitiesBox]
    /// The Admin UI place of the Code Flow capability.
    static let codeFlowPlaces = [CurityNames.capabilitiesBox, CurityNames.codeFlow]

    /// The OpenID Connect metadata switch of the token service.
    static let exposeMetadata = "\(inProfile(CurityNames.authorizationServer))/\(CurityNames.openIDConnectMetadata)"

    /// The RFC 8414 metadata switch of the token service, which publishes `/.well-known/oauth-authorization-server/<issuer
    /// path>`.
    static let exposeOAuthMetadata = "\(inProfile(CurityNames.authorizationServer))/\(CurityNames.oauthMetadata)"

    /// The token service's issuer when it is not the anonymous endpoint's URL.
    static let issuerOverride = "\(inProfile(CurityNames.authorizationServer))/\(CurityNames.issuerOverride)"

    /// The environment's base URL: "The external base URL used to contact this machine". Which URLs Curity builds from it
    /// is not said on that page; the metadata may report an endpoint on a base URL of its own (``metadataBaseURLs``).
    static let baseURL = CurityNames.environmentBaseURL.name

    /// The external base URLs the metadata may report for the token and authorize endpoints instead, under either
    /// metadata switch.
    static let metadataBaseURLs =
        "\(exposeMetadata)/\(CurityNames.metadataTokenEndpointBaseURL) (or .../\(CurityNames.metadataAuthorizeEndpointBaseURL), and the same under \(exposeOAuthMetadata))"

    /// The anonymous endpoint's path in Curity's examples.
    static let anonymousEndpointExamplePath = CurityNames.anonymousEndpointExamplePath.name

    /// The token issuer's signing key and algorithm (default RS256; EdDSA for Ed25519 and Ed448 keys).
    static let tokenSigning = "\(inProfile(CurityNames.jwtIssuerSettings)) (algorithm, \(CurityNames.signingKeyID))"

    /// The client's HAAPI capability.
    static func haapiCapability(_ clientID: String) -> String { client(clientID, CurityNames.haapiCapability) }

    /// The HAAPI capability of a client that cannot attest, as Curity's own server-side client has it. Curity publishes
    /// no Admin UI label for this switch, so none is given.
    static func haapiWithoutAttestation(_ clientID: String) -> String {
        "\(haapiCapability(clientID))/\(CurityNames.allowWithoutAttestation) = true"
    }

    /// The DPoP nonce switch of the client's HAAPI capability: false (nonces) is the default since 8.0.
    static func useLegacyDPoP(_ clientID: String) -> String { "\(haapiCapability(clientID))/\(CurityNames.useLegacyDPoP)" }

    /// Token-bound authorization codes; they require `use-legacy-dpop` false.
    static func tokenBoundCodes(_ clientID: String) -> String { "\(haapiCapability(clientID))/\(CurityNames.tokenBoundCodes)" }

    /// The client's scopes.
    static func scope(_ clientID: String) -> String { client(clientID, CurityNames.scope) }

    /// The client's redirect URIs.
    static func redirectURIs(_ clientID: String) -> String { client(clientID, CurityNames.redirectURIs) }

    /// The client's code flow capability.
    static func codeCapability(_ clientID: String) -> String { client(clientID, CurityNames.codeCapability) }

    /// The client's authenticators.
    static func allowedAuthenticators(_ clientID: String) -> String { client(clientID, CurityNames.allowedAuthenticators) }

    /// Curity 11.4's DPoP binding of the client's authorization codes (`required`: the authorize request must carry
    /// `dpop_jkt`; `client-requested`). The configuration reference read gives this setting's place for ephemeral clients
    /// only, so the text names the setting of the client and says so, rather than a guessed path.
    static func authorizationCodeDPoPBinding(_ clientID: String) -> String {
        dpopSetting(CurityNames.authorizationCodeDPoPBinding, clientID)
    }

    /// Curity 11.4's DPoP binding of the client's tokens (`required`: a token request without a valid proof is refused;
    /// `client-requested`); placed as ``authorizationCodeDPoPBinding(_:)`` is.
    static func tokenDPoPBinding(_ clientID: String) -> String { dpopSetting(CurityNames.tokenDPoPBinding, clientID) }

    /// The ephemeral clients' DPoP settings, which override the profile-wide defaults.
    static let ephemeralClientDPoP = CurityNames.ephemeralClientDPoP.name

    private static func dpopSetting(_ setting: CurityName, _ clientID: String) -> String {
        "the \(setting) DPoP setting of \(client(clientID)) (\(CurityNames.dpopRequired) or \(CurityNames.dpopClientRequested); its exact place under the client is not in the configuration reference read, only \(ephemeralClientDPoP)/\(setting) for ephemeral clients)"
    }

    /// Where the client's authentication of `method` (the gateway's `upstream.clientAuthentication`) is set. Mutual TLS
    /// names both of Curity's methods: `mutual-tls` when the gateway's TLS reaches Curity, `mutual-tls-by-proxy` when a
    /// proxy ends it and forwards the certificate (which the profile's `client-authentication/mutual-tls/by-proxy`
    /// allows).
    static func clientAuthentication(_ clientID: String, method: String) -> String {
        let element: String
        switch method {
        case "secret-basic", "secret-post": element = client(clientID, CurityNames.secret)
        case "secret-jwt": element = client(clientID, CurityNames.symmetricKey)
        case "private-key-jwt":
            element = "\(client(clientID, CurityNames.asymmetricKey)) (or \(CurityNames.jwksKeys), \(CurityNames.jwksURI))"
        case "mtls":
            element =
                "\(client(clientID, CurityNames.mutualTLS)) when this machine's TLS reaches Curity, or \(client(clientID, CurityNames.mutualTLSByProxy)) when a proxy ends it and forwards the certificate (allowed by \(inProfile(CurityNames.mutualTLSByProxySettings)))"
        default: element = client(clientID, CurityNames.noAuthentication)
        }
        return "\(element) (\(adminUI(clientID, clientAuthenticationPlaces)))"
    }
}
