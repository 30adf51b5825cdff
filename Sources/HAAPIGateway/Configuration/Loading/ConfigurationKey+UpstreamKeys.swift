import Foundation
import HAAPI

/// The settings of the upstream HAAPI server and its client, and of the embedded demo upstream.
extension ConfigurationKey {
    static let upstreamKeys: [ConfigurationKey] = [
        .init(
            "upstream.baseURL",
            .string,
            .afterRestart(\.upstream),
            "The HAAPI server's issuer (for Curity, its anonymous endpoint); unset: the embedded demo upstream."
        ) { haapi($0) { $0.baseURL.absoluteString } },
        .init(
            "upstream.internalURL",
            .string,
            .afterRestart(\.upstream),
            "Where the gateway connects to reach baseURL's origin, when that is not the way from here."
        ) { haapi($0) { $0.internalURL?.absoluteString } },
        .init("upstream.issuer", .string, .afterRestart(\.upstream), "With named endpoints: the issuer ID tokens name, when it is not baseURL.") {
            haapi($0) { $0.endpoints?.issuer }
        },
        .init("upstream.endpoints.authorization", .string, .afterRestart(\.upstream), "The authorization endpoint, named instead of discovered.") {
            haapi($0) { $0.endpoints?.authorization.absoluteString }
        },
        .init("upstream.endpoints.token", .string, .afterRestart(\.upstream), "The token endpoint, named instead of discovered.") {
            haapi($0) { $0.endpoints?.token.absoluteString }
        },
        .init("upstream.endpoints.revocation", .string, .afterRestart(\.upstream), "The revocation endpoint, named instead of discovered.") {
            haapi($0) { $0.endpoints?.revocation?.absoluteString }
        },
        .init("upstream.endpoints.jwks", .string, .afterRestart(\.upstream), "The ID token signing keys, named instead of discovered.") {
            haapi($0) { $0.endpoints?.keySet?.absoluteString }
        },
        .init("upstream.endpoints.userinfo", .string, .afterRestart(\.upstream), "The userinfo endpoint, named instead of discovered.") {
            haapi($0) { $0.endpoints?.userinfo?.absoluteString }
        },
        .init("upstream.clientID", .string, .afterRestart(\.upstream), "The OAuth client at the upstream; required with baseURL.") {
            haapi($0) { $0.clientID }
        },
        .init(
            "upstream.clientAuthentication",
            .string,
            default: "secret-basic",
            .afterRestart(\.upstream),
            "How the client authenticates: secret-basic, secret-post, secret-jwt, private-key-jwt, mtls or none."
        ) { haapi($0) { $0.clientAuthentication.settingName } },
        .init(
            "upstream.clientSecret",
            .string,
            secret: true,
            .atOnce,
            "The client secret (prefer clientSecretFile or the environment); a new one is used at once."
        ) { haapi($0) { $0.clientAuthentication.secret } },
        .init("upstream.clientSecretFile", .string, .atOnce, "A file holding the client secret; a rotated secret is used at once.") { _ in nil },
        .init(
            "upstream.privateKeyFile",
            .string,
            .atOnce,
            "private-key-jwt or mtls: the PEM private key; a rotated key is used at once."
        ) { haapi($0) { $0.clientAuthentication.privateKeyPEM.map(fingerprint) } },
        .init("upstream.keyID", .string, .afterRestart(\.upstream), "private-key-jwt: the kid put in the client assertion.") {
            haapi($0) { $0.clientAuthentication.keyID }
        },
        .init(
            "upstream.clientAssertionAlgorithm",
            .string,
            default: "ES256",
            .afterRestart(\.upstream),
            "private-key-jwt: ES256, RS256 or PS256."
        ) { haapi($0) { $0.clientAuthentication.assertionAlgorithm } },
        .init(
            "upstream.allowUnauthenticatedClient",
            .boolean,
            default: "false",
            .afterRestart(\.upstream),
            "Accept clientAuthentication none (only for a server that really issues HAAPI tokens to such a client)."
        ) { haapi($0) { "\($0.clientAuthentication == .none)" } },
        .init(
            "upstream.clientCertificateFile",
            .string,
            .atOnce,
            "mtls: the PEM client certificate; a rotated one is used at once."
        ) { haapi($0) { $0.clientAuthentication.certificatePEM.map(fingerprint) } },
        .init("upstream.trustRootsFile", .string, .afterRestart(\.upstream), "PEM certificates trusted for the upstream's TLS besides the system's.")
        {
            haapi($0) { $0.additionalTrustRootsPEM.first.map(fingerprint) }
        },
        .init("upstream.redirectURI", .string, default: "haapi:start", .afterRestart(\.upstream), "The client's registered redirect URI.") {
            haapi($0) { $0.redirectURI }
        },
        .init(
            "upstream.scopes",
            .list,
            .afterRestart(\.upstream),
            "The scopes asked for (also with the demo upstream): a list, or space-separated as OAuth writes them."
        ) {
            list($0.upstream.scopes)
        },
        .init(
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
        },
        .init(
            "upstream.bindTokensToDPoP",
            .boolean,
            default: "false",
            .afterRestart(\.upstream),
            "Whether the final tokens are bound to the flow's DPoP key (set it for a Curity client with token-bound codes)."
        ) { haapi($0) { "\($0.bindTokensToDPoP)" } },
        .init("upstream.acrValues", .list, .afterRestart(\.upstream), "The authorize request's acr_values.") {
            haapi($0) { list($0.authorizationParameters.acrValues) }
        },
        .init("upstream.prompt", .string, .afterRestart(\.upstream), "The authorize request's prompt.") {
            haapi($0) { $0.authorizationParameters.prompt }
        },
        .init("upstream.uiLocales", .list, .afterRestart(\.upstream), "The authorize request's ui_locales.") {
            haapi($0) { list($0.authorizationParameters.uiLocales) }
        },
        .init("upstream.loginHint", .string, .afterRestart(\.upstream), "The authorize request's login_hint.") {
            haapi($0) { $0.authorizationParameters.loginHint }
        },
        .init("upstream.maxAgeSeconds", .integer, range: 0...31_536_000, .afterRestart(\.upstream), "The authorize request's max_age.") {
            haapi($0) { $0.authorizationParameters.maxAgeSeconds.map { "\($0)" } }
        },
        .init("upstream.claims", .string, .afterRestart(\.upstream), "The authorize request's claims (a JSON object as text).") {
            haapi($0) { $0.authorizationParameters.claims }
        },
    ]

    static let demoKeys: [ConfigurationKey] = [
        .init(
            "demo.requireDPoPNonce",
            .boolean,
            .afterRestart(\.upstream),
            "The embedded demo upstream issues and requires DPoP nonces."
        ) { demo($0) { "\($0.requireDPoPNonce)" } },
        .init(
            "demo.strict",
            .boolean,
            .afterRestart(\.upstream),
            "The embedded demo upstream answers as close to Curity as it can (the tests run against it)."
        ) { demo($0) { "\($0.strict)" } },
    ]
}
