import Foundation
import HAAPI

/// The settings of the upstream HAAPI server and its client, and of the embedded demo upstream.
/// Each is a constant named after its path (`server.port`: ``serverPort``), the one place that path is written; its
/// summary, the reference's text, is its documentation.
extension ConfigurationKey {
    /// The `upstream` section's keys, in the reference's order.
    static let upstreamKeys: [ConfigurationKey] = [
        upstreamBaseURL, upstreamInternalURL, upstreamIssuer, upstreamEndpointsAuthorization, upstreamEndpointsToken, upstreamEndpointsRevocation,
        upstreamEndpointsJWKS, upstreamEndpointsUserinfo, upstreamClientID, upstreamClientAuthentication, upstreamClientSecret,
        upstreamClientSecretFile, upstreamPrivateKeyFile, upstreamKeyID, upstreamClientAssertionAlgorithm, upstreamAllowUnauthenticatedClient,
        upstreamClientCertificateFile, upstreamTrustRootsFile, upstreamRedirectURI, upstreamScopes, upstreamTimeoutSeconds, upstreamBindTokensToDPoP,
        upstreamAcrValues, upstreamPrompt, upstreamUiLocales, upstreamLoginHint, upstreamMaxAgeSeconds, upstreamClaims,
    ]

    public static let upstreamBaseURL = ConfigurationKey(
        "upstream.baseURL",
        .string,
        .afterRestart(\.upstream),
        "The HAAPI server's issuer (for Curity, its anonymous endpoint); unset: the embedded demo upstream."
    ) { haapi($0) { $0.baseURL.absoluteString } }

    public static let upstreamInternalURL = ConfigurationKey(
        "upstream.internalURL",
        .string,
        .afterRestart(\.upstream),
        "Where the gateway connects to reach baseURL's origin, when that is not the way from here."
    ) { haapi($0) { $0.internalURL?.absoluteString } }

    public static let upstreamIssuer = ConfigurationKey(
        "upstream.issuer",
        .string,
        .afterRestart(\.upstream),
        "With named endpoints: the issuer ID tokens name, when it is not baseURL."
    ) {
        haapi($0) { $0.endpoints?.issuer }
    }

    public static let upstreamEndpointsAuthorization = ConfigurationKey(
        "upstream.endpoints.authorization",
        .string,
        .afterRestart(\.upstream),
        "The authorization endpoint, named instead of discovered."
    ) {
        haapi($0) { $0.endpoints?.authorization.absoluteString }
    }

    public static let upstreamEndpointsToken = ConfigurationKey(
        "upstream.endpoints.token",
        .string,
        .afterRestart(\.upstream),
        "The token endpoint, named instead of discovered."
    ) {
        haapi($0) { $0.endpoints?.token.absoluteString }
    }

    public static let upstreamEndpointsRevocation = ConfigurationKey(
        "upstream.endpoints.revocation",
        .string,
        .afterRestart(\.upstream),
        "The revocation endpoint, named instead of discovered."
    ) {
        haapi($0) { $0.endpoints?.revocation?.absoluteString }
    }

    public static let upstreamEndpointsJWKS = ConfigurationKey(
        "upstream.endpoints.jwks",
        .string,
        .afterRestart(\.upstream),
        "The ID token signing keys, named instead of discovered."
    ) {
        haapi($0) { $0.endpoints?.keySet?.absoluteString }
    }

    public static let upstreamEndpointsUserinfo = ConfigurationKey(
        "upstream.endpoints.userinfo",
        .string,
        .afterRestart(\.upstream),
        "The userinfo endpoint, named instead of discovered."
    ) {
        haapi($0) { $0.endpoints?.userinfo?.absoluteString }
    }

    public static let upstreamClientID = ConfigurationKey(
        "upstream.clientID",
        .string,
        .afterRestart(\.upstream),
        "The OAuth client at the upstream; required with baseURL."
    ) {
        haapi($0) { $0.clientID }
    }

    public static let upstreamClientAuthentication = ConfigurationKey(
        "upstream.clientAuthentication",
        .string,
        default: "secret-basic",
        .afterRestart(\.upstream),
        "How the client authenticates: secret-basic, secret-post, secret-jwt, private-key-jwt, mtls or none."
    ) { haapi($0) { $0.clientAuthentication.settingName } }

    public static let upstreamClientSecret = ConfigurationKey(
        "upstream.clientSecret",
        .string,
        secret: true,
        .atOnce,
        "The client secret (prefer clientSecretFile or the environment); a new one is used at once."
    ) { haapi($0) { $0.clientAuthentication.secret } }

    public static let upstreamClientSecretFile = ConfigurationKey(
        "upstream.clientSecretFile",
        .string,
        .atOnce,
        "A file holding the client secret; a rotated secret is used at once."
    ) { _ in nil }

    public static let upstreamPrivateKeyFile = ConfigurationKey(
        "upstream.privateKeyFile",
        .string,
        .atOnce,
        "private-key-jwt or mtls: the PEM private key; a rotated key is used at once."
    ) { haapi($0) { $0.clientAuthentication.privateKeyPEM.map(fingerprint) } }

    public static let upstreamKeyID = ConfigurationKey(
        "upstream.keyID",
        .string,
        .afterRestart(\.upstream),
        "private-key-jwt: the kid put in the client assertion."
    ) {
        haapi($0) { $0.clientAuthentication.keyID }
    }

    public static let upstreamClientAssertionAlgorithm = ConfigurationKey(
        "upstream.clientAssertionAlgorithm",
        .string,
        default: "ES256",
        .afterRestart(\.upstream),
        "private-key-jwt: ES256, RS256 or PS256."
    ) { haapi($0) { $0.clientAuthentication.assertionAlgorithm } }

    public static let upstreamAllowUnauthenticatedClient = ConfigurationKey(
        "upstream.allowUnauthenticatedClient",
        .boolean,
        default: "false",
        .afterRestart(\.upstream),
        "Accept clientAuthentication none (only for a server that really issues HAAPI tokens to such a client)."
    ) { haapi($0) { "\($0.clientAuthentication == .none)" } }

    public static let upstreamClientCertificateFile = ConfigurationKey(
        "upstream.clientCertificateFile",
        .string,
        .atOnce,
        "mtls: the PEM client certificate; a rotated one is used at once."
    ) { haapi($0) { $0.clientAuthentication.certificatePEM.map(fingerprint) } }

    public static let upstreamTrustRootsFile = ConfigurationKey(
        "upstream.trustRootsFile",
        .string,
        .afterRestart(\.upstream),
        "PEM certificates trusted for the upstream's TLS besides the system's."
    ) {
        haapi($0) { $0.additionalTrustRootsPEM.first.map(fingerprint) }
    }

    public static let upstreamRedirectURI = ConfigurationKey(
        "upstream.redirectURI",
        .string,
        default: "haapi:start",
        .afterRestart(\.upstream),
        "The client's registered redirect URI."
    ) {
        haapi($0) { $0.redirectURI }
    }

    public static let upstreamScopes = ConfigurationKey(
        "upstream.scopes",
        .list,
        .afterRestart(\.upstream),
        "The scopes asked for (also with the demo upstream): a list, or space-separated as OAuth writes them."
    ) {
        list($0.upstream.scopes)
    }

    public static let upstreamTimeoutSeconds = ConfigurationKey(
        "upstream.timeoutSeconds",
        .integer,
        range: 1...120,
        .afterRestart(\.upstream),
        "How long the upstream may take for one page; the last page of a sign-in has twice this."
    ) {
        switch $0.upstream {
        case .demo(let demo): "\(demo.timeoutSeconds)"
        case .haapi(let client): "\(client.requestTimeout.components.seconds)"
        }
    }

    public static let upstreamBindTokensToDPoP = ConfigurationKey(
        "upstream.bindTokensToDPoP",
        .boolean,
        default: "false",
        .afterRestart(\.upstream),
        "Whether the final tokens are bound to the flow's DPoP key: the authorize request carries dpop_jkt and the code exchange a proof (set it for a Curity client with token-bound codes, or with authorization-code-dpop-binding or token-dpop-binding required)."
    ) { haapi($0) { "\($0.bindTokensToDPoP)" } }

    public static let upstreamAcrValues = ConfigurationKey(
        "upstream.acrValues",
        .list,
        .afterRestart(\.upstream),
        "The authorize request's acr_values."
    ) {
        haapi($0) { list($0.authorizationParameters.acrValues) }
    }

    public static let upstreamPrompt = ConfigurationKey("upstream.prompt", .string, .afterRestart(\.upstream), "The authorize request's prompt.") {
        haapi($0) { $0.authorizationParameters.prompt }
    }

    public static let upstreamUiLocales = ConfigurationKey(
        "upstream.uiLocales",
        .list,
        .afterRestart(\.upstream),
        "The authorize request's ui_locales."
    ) {
        haapi($0) { list($0.authorizationParameters.uiLocales) }
    }

    public static let upstreamLoginHint = ConfigurationKey(
        "upstream.loginHint",
        .string,
        .afterRestart(\.upstream),
        "The authorize request's login_hint."
    ) {
        haapi($0) { $0.authorizationParameters.loginHint }
    }

    public static let upstreamMaxAgeSeconds = ConfigurationKey(
        "upstream.maxAgeSeconds",
        .integer,
        range: 0...31_536_000,
        .afterRestart(\.upstream),
        "The authorize request's max_age."
    ) {
        haapi($0) { $0.authorizationParameters.maxAgeSeconds.map { "\($0)" } }
    }

    public static let upstreamClaims = ConfigurationKey(
        "upstream.claims",
        .string,
        .afterRestart(\.upstream),
        "The authorize request's claims (a JSON object as text)."
    ) {
        haapi($0) { $0.authorizationParameters.claims }
    }

    /// The `demo` section's keys, in the reference's order.
    static let demoKeys: [ConfigurationKey] = [
        demoRequireDPoPNonce, demoStrict,
    ]

    public static let demoRequireDPoPNonce = ConfigurationKey(
        "demo.requireDPoPNonce",
        .boolean,
        .afterRestart(\.upstream),
        "The embedded demo upstream issues and requires DPoP nonces."
    ) { demo($0) { "\($0.requireDPoPNonce)" } }

    public static let demoStrict = ConfigurationKey(
        "demo.strict",
        .boolean,
        .afterRestart(\.upstream),
        "The embedded demo upstream answers as close to Curity as it can (the tests run against it)."
    ) { demo($0) { "\($0.strict)" } }

}
