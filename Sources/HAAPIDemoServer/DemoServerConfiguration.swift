import Foundation

/// How the embedded demo HAAPI server is started.
///
/// Every value has a default that runs as shipped: loopback, a free port, no nonces.
/// Lifetimes are in seconds and can be shortened by tests (for example `flowLifetimeSeconds`).
public struct DemoServerConfiguration: Sendable {
    /// The address to bind; loopback by default. Any other address prints a loud warning.
    public var host: String
    /// The port to bind; 0 picks a free port.
    public var port: Int
    /// When true, DPoP nonces are issued and required (`use_dpop_nonce` challenges).
    public var requireDPoPNonce: Bool
    /// With ``requireDPoPNonce``: nonces are issued and checked per DPoP key (RFC 7638 thumbprint) instead of one
    /// server-wide value, so a proof carrying another key's nonce gets `use_dpop_nonce` and that key's own nonce.
    /// Curity leaves the scope of a nonce undocumented (notes 1.4, [DPOPNONCE]); this catches a client that shares one
    /// nonce across flows or keys. Default false.
    public var noncesPerKey: Bool = false
    /// Like Curity's `issue-token-bound-authorization-code` ([TOKENBIND], notes 5): the authorization code is bound to the
    /// DPoP key that ran the flow, and the code exchange must carry a valid proof from that key, else HTTP 400
    /// `invalid_dpop_proof`. A refused exchange does not consume the code (the client may retry with a proof).
    /// Default false.
    public var issueTokenBoundAuthorizationCodes: Bool = false
    /// With ``issueTokenBoundAuthorizationCodes``: an exchange refused for a missing proof uses its code up, so that a
    /// retry with a proof gets `invalid_grant` (a code used twice, RFC 6749 §4.1.2). It stands for a server that uses a
    /// code up when it refuses its exchange; Curity does not document whether it does, either way ([TOKENBIND]). An
    /// exchange proved with another key is refused without using the code up, as before. Not part of strict mode.
    /// Default false.
    public var consumesCodesOnRefusedProof: Bool = false
    /// Like Curity 11.4's client setting `authorization-code-dpop-binding` ([DPOP114], [DPOPEPH]): with ``DemoDPoPBinding/required``
    /// an authorize request without `dpop_jkt` is refused with an `error-authorization-response` whose `error` is
    /// `invalid_request` (the demo's answer: Curity's pages do not show one); with either value a request that carries
    /// `dpop_jkt` gets a code bound to that thumbprint, whose exchange must be proved with that key (RFC 9449 §10), else
    /// `invalid_dpop_proof`. Default ``DemoDPoPBinding/clientRequested``; required in strict mode.
    public var authorizationCodeDPoPBinding: DemoDPoPBinding = .clientRequested
    /// Like Curity 11.4's client setting `token-dpop-binding` ([DPOP114], [DPOPEPH]): with ``DemoDPoPBinding/required``
    /// an authorization-code or refresh-token request without a valid DPoP proof is refused (`invalid_dpop_proof`, HTTP
    /// 400, RFC 9449 §7.1; Curity's error is not shown on its pages); with ``DemoDPoPBinding/clientRequested`` tokens are
    /// bound when the request carries a proof, as the demo always did. Default ``DemoDPoPBinding/clientRequested``;
    /// required in strict mode.
    public var tokenDPoPBinding: DemoDPoPBinding = .clientRequested
    /// Like a load balancer pinning a Curity cluster node (notes 2.3): the authorize response sets the cookie
    /// `demo-node` (`Path=/`, per flow) and every later HAAPI request of the flow must send it back; it also sets
    /// `demo-unused` with `Path=/demo-unused`, which a client must not send to HAAPI paths. Default false.
    public var requiresStickinessCookie: Bool = false
    /// Whether the OpenID Connect metadata is published (at `<issuer>/.well-known/openid-configuration`), as Curity's
    /// token service does only when its metadata is exposed ([OIDCMETA]). Default true; false makes clients name the
    /// endpoints.
    public var publishesMetadata: Bool = true
    /// Like Curity's client setting `capabilities/haapi/allow-without-attestation` ([SRVCONF], notes 1.2): when false, a
    /// HAAPI token request from the client, which cannot attest, is refused (`unauthorized_client`; Curity's own error
    /// code for it is not documented). Default true.
    public var haapiAllowedWithoutAttestation: Bool = true
    /// With ``haapiAllowedWithoutAttestation`` false: the OAuth error the refusal carries. Curity does not document which
    /// error a client that must attest gets (notes 5), so both readings are tested. Default `unauthorized_client`.
    public var attestationRefusal: DemoAttestationRefusal = .unauthorizedClient
    /// The base URL a DPoP proof's `htu` is checked against, when it is not the one clients use (``publicBaseURL``): a
    /// server that compares proofs with another URL than the one its clients name, as behind a proxy that rewrites the
    /// host. Curity's documentation says only that a proof's method and URL must match the request ([DPOPNONCE]), not
    /// which URL it compares with behind a proxy (notes 5). Nil checks against the base URL (the default).
    public var proofBaseURL: String? = nil
    /// Whether RFC 8414 authorization server metadata is published at
    /// `/.well-known/oauth-authorization-server/oauth/v2/oauth-anonymous` (the issuer's path after the well-known
    /// prefix), as Curity does when the token service's `authorization-server/expose-metadata` is on (Curity's token
    /// service admin guide, https://curity.io/docs/idsvr/latest/token-service-admin-guide/metadata.html). Default false,
    /// as Curity's.
    public var publishesOAuthMetadata: Bool = false
    /// The issuer, when it is not the anonymous endpoint: an absolute URL, or a path on the base URL (`/custom`), as
    /// Curity's `authorization-server/issuer-override` sets it ("Override the issuer for tokens issued by this
    /// authorization server", https://curity.io/docs/identity-server/configuration-reference/profiles/profile/settings/authorization-server).
    /// Metadata, ID tokens and authorization responses name it; the OpenID Connect metadata stays under the anonymous
    /// endpoint and the RFC 8414 metadata moves to the issuer's path, as Curity's metadata page describes. Nil (the
    /// default) keeps the anonymous endpoint.
    public var issuerOverride: String? = nil
    /// Whether the JWKS publishes an Ed448 key (`kty` `OKP`, `crv` `Ed448`) in place of the ID-token signing key, and
    /// discovery names `EdDSA`: a Curity token profile whose EdDSA key is an Ed448 one ([EDDSA]). The demo cannot sign
    /// with Ed448, so its ID tokens then fail validation as they would against such a server. Default false.
    public var publishesEd448Key: Bool = false
    /// Whether a refresh keeps the refresh token, which may then be used again, as Curity's
    /// `authorization-server/reuse-refresh-tokens` true (the token profile's settings,
    /// https://curity.io/docs/identity-server/configuration-reference/profiles/profile/settings/authorization-server).
    /// False (the default, Curity's too): every refresh issues a new refresh token, and one presented again after its
    /// rotation is refused with `invalid_grant`, which punishes two refreshes racing with the same token.
    public var reusesRefreshTokens: Bool = false
    /// Whether a rotated refresh token presented again also revokes the whole grant (RFC 9700 §4.14.2), the newest tokens
    /// included. This goes beyond what Curity documents: its
    /// `authorization-server/revoke-delegation-for-public-clients-reusing-refresh-token` (default true) revokes the
    /// delegation when a *public* client reuses a refresh token
    /// (https://curity.io/docs/identity-server/configuration-reference/profiles/profile/settings/authorization-server),
    /// and every demo client is confidential. False (the default): the reused token is refused and the grant is kept.
    public var revokesGrantOnRefreshTokenReuse: Bool = false
    /// How an authorize request with a redirect URI the client has not registered is refused: as an
    /// `error-authorization-response` naming the parameter (the default), or as a problem that names nothing (a server
    /// that says little; Curity does not document its answer, notes 5).
    public var redirectURIRefusal: DemoRedirectURIRefusal = .errorAuthorizationResponse
    /// Whether hrefs in steps are absolute URLs on ``publicBaseURL`` (as in Curity's example, [EXUSER]:
    /// `"href": "https://localhost:8443/dev/authn/…"`) rather than paths. Default false; on in strict mode.
    public var writesAbsoluteHrefs: Bool = false
    /// Where to write the demo client's private key (PEM, PKCS#8) for `private_key_jwt`; nil writes nothing.
    public var clientKeyPath: String?
    /// The base URL clients use to reach the server (`htu`, hrefs; the issuer is its anonymous endpoint
    /// `<base>/oauth/v2/oauth-anonymous`), as Curity's `base-url`: it may differ from where the server listens (an
    /// external https URL in front of a loopback listener). Nil means `http://host:port` with the bound port
    /// (`127.0.0.1` when binding a wildcard address).
    public var publicBaseURL: String?
    /// How long a login flow (HAAPI session) lives.
    public var flowLifetimeSeconds: Double
    /// The most login flows held at once; beyond it the flow expiring first is dropped (default 10 000).
    public var maximumFlows: Int
    /// Lifetime of the DPoP-bound HAAPI access token (client_credentials).
    public var haapiTokenLifetimeSeconds: Double
    /// Lifetime of access tokens from the code and refresh grants.
    public var accessTokenLifetimeSeconds: Double
    /// Lifetime of refresh tokens.
    public var refreshTokenLifetimeSeconds: Double
    /// Lifetime of authorization codes.
    public var authorizationCodeLifetimeSeconds: Double
    /// How far a DPoP proof's `iat` may be from the server's clock.
    public var dpopProofWindowSeconds: Double
    /// How often the DPoP nonce rotates (nonce mode only).
    public var dpopNonceLifetimeSeconds: Double
    /// How long an approval (the poll user's, BankID's) may wait: the polling step's `maxWaitTime` (in seconds, as
    /// Curity's, [UIKIT]); after it the wait fails. Default 120.
    public var approvalMaxWaitSeconds: Int = 120
    /// The polling interval the server suggests on polling steps, in seconds (sent as `properties.interval` in milliseconds).
    public var pollingIntervalSeconds: Int
    /// The largest request body accepted; larger bodies get HTTP 413.
    public var maximumRequestBodyBytes: Int
    /// The WebAuthn relying-party id of the passkey option: a host name that the browser's origin must equal or end
    /// with (`.` + id). Browsers refuse IP addresses as RP ids, so browsers must reach the gateway by this name.
    public var passkeyRelyingPartyID: String
    /// Exact origins (`scheme://host[:port]`, for example the gateway's `https://login.example.com`) whose WebAuthn
    /// responses are accepted, besides `passkeyAcceptsLocalhostOrigins`.
    public var passkeyAllowedOrigins: [String]
    /// Whether `http://localhost` and `https://localhost` on any port are accepted (only while the relying-party id is
    /// `localhost`): a browser and the gateway on one machine, as in development and the tests.
    public var passkeyAcceptsLocalhostOrigins: Bool
    /// The demo client's secret (default `demo-secret`); tests set a unique one to prove it is never shown or logged.
    public var clientSecret: String
    /// A flaw put into every ID token issued (tests of a client's ID token validation); nil issues sound tokens (the default).
    public var idTokenFault: DemoIDTokenFault? = nil
    /// The OAuth error every authorization-code exchange is answered with, its texts as given (tests of what a client
    /// logs and shows of an upstream's error); nil exchanges codes (the default).
    public var codeExchangeRefusal: DemoCodeExchangeRefusal? = nil
    /// The key ID tokens are signed with: ``DemoIDTokenAlgorithm/es256`` (the default) or
    /// ``DemoIDTokenAlgorithm/ed25519`` (`alg` `EdDSA`, as a Curity token profile with an EdDSA key, [EDDSA]). The JWKS
    /// publishes that key and discovery's `id_token_signing_alg_values_supported` names its algorithm.
    public var idTokenSigningAlgorithm: DemoIDTokenAlgorithm = .es256
    /// Replaces discovery's `id_token_signing_alg_values_supported` (tests of a client that warns about algorithms it
    /// cannot validate, such as `Ed448` or `HS256`); the tokens are still signed with ``idTokenSigningAlgorithm``. Nil
    /// lists that algorithm alone (the default).
    public var advertisedIDTokenAlgorithms: [String]? = nil
    /// Passwords by demo username, replacing the shipped ones (each demo user's password is its name by default);
    /// tests set unique ones to prove they are never shown or logged.
    public var passwords: [String: String]

    /// Creates a configuration.
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port to bind; 0 picks a free one.
    ///   - requireDPoPNonce: Whether DPoP nonces are issued and required.
    ///   - clientKeyPath: Where to write the demo client's private key for `private_key_jwt`.
    ///   - publicBaseURL: The externally visible base URL, when it differs from `http://host:port`.
    ///   - flowLifetimeSeconds: Lifetime of a login flow.
    ///   - maximumFlows: The most login flows held at once.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        requireDPoPNonce: Bool = false,
        clientKeyPath: String? = nil,
        publicBaseURL: String? = nil,
        flowLifetimeSeconds: Double = 600,
        maximumFlows: Int = 10_000
    ) {
        self.host = host
        self.port = port
        self.requireDPoPNonce = requireDPoPNonce
        self.clientKeyPath = clientKeyPath
        self.publicBaseURL = publicBaseURL
        self.flowLifetimeSeconds = flowLifetimeSeconds
        self.maximumFlows = maximumFlows
        self.haapiTokenLifetimeSeconds = 600
        self.accessTokenLifetimeSeconds = 300
        self.refreshTokenLifetimeSeconds = 3600
        self.authorizationCodeLifetimeSeconds = 60
        self.dpopProofWindowSeconds = 60
        self.dpopNonceLifetimeSeconds = 60
        self.pollingIntervalSeconds = 2
        self.maximumRequestBodyBytes = 16 * 1024
        self.passkeyRelyingPartyID = "localhost"
        self.passkeyAllowedOrigins = []
        self.passkeyAcceptsLocalhostOrigins = true
        self.clientSecret = "demo-secret"
        self.passwords = [:]
    }

    /// A configuration with every strict check on: ``requireDPoPNonce``, ``noncesPerKey``,
    /// ``issueTokenBoundAuthorizationCodes``, ``authorizationCodeDPoPBinding`` and ``tokenDPoPBinding`` required,
    /// ``requiresStickinessCookie`` and ``writesAbsoluteHrefs``; everything else as
    /// ``init(host:port:requireDPoPNonce:clientKeyPath:publicBaseURL:flowLifetimeSeconds:maximumFlows:)``.
    public static var strict: DemoServerConfiguration {
        var configuration = DemoServerConfiguration()
        configuration.makeStrict()
        return configuration
    }

    /// Turns on every strict check: ``requireDPoPNonce``, ``noncesPerKey``, ``issueTokenBoundAuthorizationCodes``,
    /// ``authorizationCodeDPoPBinding`` and ``tokenDPoPBinding`` required, ``requiresStickinessCookie`` and
    /// ``writesAbsoluteHrefs``. Other values are kept.
    public mutating func makeStrict() {
        requireDPoPNonce = true
        noncesPerKey = true
        issueTokenBoundAuthorizationCodes = true
        authorizationCodeDPoPBinding = .required
        tokenDPoPBinding = .required
        requiresStickinessCookie = true
        writesAbsoluteHrefs = true
    }

    /// Turns off every way the demo binds a sign-in's tokens to a DPoP key it does not ask for: token-bound codes and
    /// both DPoP binding settings at ``DemoDPoPBinding/clientRequested``. A client that proves nothing then gets bearer
    /// tokens, also from a strict demo.
    public mutating func bindOnlyWhenRequested() {
        issueTokenBoundAuthorizationCodes = false
        authorizationCodeDPoPBinding = .clientRequested
        tokenDPoPBinding = .clientRequested
    }

    /// Whether every strict check is on.
    public var isStrict: Bool {
        requireDPoPNonce && noncesPerKey && issueTokenBoundAuthorizationCodes && authorizationCodeDPoPBinding == .required
            && tokenDPoPBinding == .required && requiresStickinessCookie && writesAbsoluteHrefs
    }

    /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`, `localhost`).
    public var bindsLoopbackOnly: Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
