import Foundation
import HAAPI

extension ConfigurationKey {
    /// Every setting, in the order of `config/haapi-gateway.yaml` (which explains each one at length, with examples).
    public static let all: [ConfigurationKey] =
        server + upstream + demo + sessions + templates + outcomes + pages + metrics + devices + startLinks + logging

    private static let server: [ConfigurationKey] = [
        .init(
            "server.host",
            .string,
            .afterRestart(\.server.host),
            "The address to listen on; anything but loopback needs HTTPS or a TLS proxy in front."
        ) {
            $0.server.host
        },
        .init("server.port", .integer, range: 0...65_535, .afterRestart(\.server.port), "The port to listen on; 0 picks a free port.") {
            "\($0.server.port)"
        },
        .init(
            "server.publicURL",
            .string,
            .afterRestart(\.server.publicBaseURL),
            "The origin people reach the gateway by, when it is not http://host:port (required beyond loopback with devices)."
        ) { $0.server.publicBaseURL?.absoluteString },
        .init(
            "server.maximumRequestBodyBytes",
            .integer,
            range: 1024...(16 << 20),
            .afterRestart(\.server.maximumRequestBodyBytes),
            "The largest request body accepted, in bytes; larger posts get a 413 page."
        ) { "\($0.server.maximumRequestBodyBytes)" },
        .init(
            "server.drainSeconds",
            .integer,
            range: 0...300,
            .afterRestart(\.server.drainSeconds),
            "On SIGTERM, how long /readyz answers 503 and new sign-ins are turned away before the listener stops."
        ) { "\($0.server.drainSeconds)" },
        .init(
            "server.stopSeconds",
            .integer,
            range: 5...600,
            .afterRestart(\.server.stopSeconds),
            "After the drain, how long the rest of a stop may take; what has not ended then is named and the process exits 70."
        ) { "\($0.server.stopSeconds)" },
        .init(
            "server.healthEndpoints",
            .boolean,
            .afterRestart(\.server.healthEndpoints),
            "Whether /healthz and /readyz are served on this listener too (always on the metrics listener)."
        ) { "\($0.server.healthEndpoints)" },
        .init(
            "server.trustedProxies",
            .list,
            .afterRestart(\.server.trustedProxies),
            "Reverse proxies (addresses or CIDR blocks) whose X-Forwarded-For names the client."
        ) { list($0.server.trustedProxies.map(\.description)) },
        .init(
            "server.requestTimeoutSeconds",
            .integer,
            range: 1...300,
            .afterRestart(\.server.requestTimeoutSeconds),
            "How long a connection may take to deliver a whole request, and stay idle between requests."
        ) { "\($0.server.requestTimeoutSeconds)" },
        .init(
            "server.maximumConnections",
            .integer,
            range: 1...1_000_000,
            .afterRestart(\.server.maximumConnections),
            "The most connections open at once, the metrics listener's included."
        ) { "\($0.server.maximumConnections)" },
        .init(
            "server.maximumConnectionsPerAddress",
            .integer,
            range: 0...1_000_000,
            .afterRestart(\.server.maximumConnectionsPerAddress),
            "The most connections open at once from one address; 0: no cap per address."
        ) { "\($0.server.maximumConnectionsPerAddress)" },
        .init(
            "server.strictTransportSecuritySeconds",
            .integer,
            range: 0...63_072_000,
            .atOnce,
            "When over 0 and browsers reach the gateway over HTTPS, Strict-Transport-Security max-age in seconds; 0: not sent."
        ) { "\($0.server.strictTransportSecuritySeconds)" },
        .init("server.tlsCertificateFile", .string, .afterRestart(\.server.tls), "Listen on HTTPS with this PEM certificate chain (with tlsKeyFile).")
        {
            $0.server.tls.map { fingerprint($0.certificateChainPEM) }
        },
        .init("server.tlsKeyFile", .string, .afterRestart(\.server.tls), "The PEM private key of tlsCertificateFile.") {
            $0.server.tls.map { fingerprint($0.privateKeyPEM) }
        },
    ]

    private static let upstream: [ConfigurationKey] = [
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

    private static let demo: [ConfigurationKey] = [
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

    private static let sessions: [ConfigurationKey] = [
        .init("sessions.idleTimeoutSeconds", .integer, range: 10...86_400, .atOnce, "A sign-in left alone this long ends.") {
            "\($0.sessions.idleTimeoutSeconds)"
        },
        .init(
            "sessions.absoluteTimeoutSeconds",
            .integer,
            range: 10...604_800,
            .atOnce,
            "A sign-in ends this long after it began (at least idleTimeoutSeconds)."
        ) { "\($0.sessions.absoluteTimeoutSeconds)" },
        .init(
            "sessions.maximumSessions",
            .integer,
            range: 1...10_000_000,
            .atOnce,
            "The most sign-ins held (every replica's, with postgres)."
        ) { "\($0.sessions.maximumSessions)" },
        .init(
            "sessions.maximumNewSessionsPerAddress",
            .integer,
            range: 0...1_000_000,
            .atOnce,
            "The most new sign-ins per client address in newSessionWindowSeconds; 0: no bound."
        ) { "\($0.sessions.maximumNewSessionsPerAddress)" },
        .init(
            "sessions.newSessionWindowSeconds",
            .integer,
            range: 1...86_400,
            .atOnce,
            "The sliding window new sign-ins are counted in."
        ) { "\($0.sessions.newSessionWindowSeconds)" },
        .init(
            "sessions.maximumFailedPostsPerSession",
            .integer,
            range: 1...10_000,
            .atOnce,
            "The most failed posts (forged, unknown button, wrong credentials) per sign-in in failedPostWindowSeconds."
        ) { "\($0.sessions.maximumFailedPostsPerSession)" },
        .init(
            "sessions.maximumFailedPostsPerAddress",
            .integer,
            range: 1...1_000_000,
            .atOnce,
            "The same bound per client address, over all its sign-ins."
        ) { "\($0.sessions.maximumFailedPostsPerAddress)" },
        .init(
            "sessions.failedPostWindowSeconds",
            .integer,
            range: 1...86_400,
            .atOnce,
            "The sliding window failed posts are counted in."
        ) { "\($0.sessions.failedPostWindowSeconds)" },
        .init("sessions.store", .string, .afterRestart(\.sessions.store), "Where sign-ins are kept: memory or postgres.") {
            $0.sessions.store == .memory ? "memory" : "postgres"
        },
        .init(
            "sessions.postgresURL",
            .string,
            secret: true,
            .afterRestart(\.sessions.store),
            "postgres: the database URL, libpq's form (sslmode verify-full unless it says otherwise)."
        ) { postgres($0) { "\($0.url) \($0.url.password ?? "")" } },
        .init("sessions.postgresURLFile", .string, .afterRestart(\.sessions.store), "postgres: a file holding the database URL.") { _ in nil },
        .init(
            "sessions.encryptionKeysFile",
            .string,
            .afterRestart(\.sessions.store),
            "postgres: the AES-256 keys, one per line, that seal stored sign-ins; the first seals, every one opens."
        ) { postgres($0) { $0.encryptionKeys.map(\.idHex).joined(separator: ", ") } },
        .init(
            "sessions.synchronousCommit",
            .boolean,
            default: "false",
            .afterRestart(\.sessions.store),
            "postgres: whether a sign-in's row waits for the database's disk at every commit."
        ) { postgres($0) { "\($0.synchronousCommit)" } },
    ]

    private static let templates: [ConfigurationKey] = [
        .init("templates.directory", .string, .atOnce, "The page templates; unset: ./templates, else next to the executable.") {
            $0.templates.directory?.path
        },
        .init("templates.overrideDirectory", .string, .atOnce, "Templates that replace the defaults of the same name, file by file.") {
            $0.templates.overrideDirectory?.path
        },
    ]

    /// Where the outcome of a sign-in goes, what it holds, and where the browser goes then.
    private static let outcomes: [ConfigurationKey] = [
        .init("callbacks.sinks", .list, .atOnce, "Where each outcome goes: file:PATH, exec:PROGRAM, https:// webhooks.") {
            list($0.callbacks.map(\.description))
        },
        .init(
            "callbacks.webhookSecret",
            .string,
            secret: true,
            .atOnce,
            "The webhook signing secret, at least 16 characters (prefer webhookSecretFile)."
        ) { $0.callbacks.lazy.compactMap(\.webhookSecret).first },
        .init("callbacks.webhookSecretFile", .string, .atOnce, "A file holding the webhook secret.") { _ in nil },
        .init(
            "callbacks.previousWebhookSecretFile",
            .string,
            .atOnce,
            "During a rotation, the old webhook secret: requests carry both signatures."
        ) { $0.callbacks.lazy.compactMap(\.previousWebhookSecret).first.map { _ in "set" } },
        .init(
            "callbacks.retryForSeconds",
            .integer,
            range: 0...604_800,
            .atOnce,
            "How long a failed delivery is retried, with backoff."
        ) { "\($0.callbackDelivery.retryForSeconds)" },
        .init(
            "callbacks.handOverSeconds",
            .integer,
            range: 1...300,
            .atOnce,
            "How long a shutdown waits for the sinks' last deliveries (and at most how long the last page does)."
        ) { "\($0.callbackDelivery.handOverSeconds)" },
        .init(
            "callbacks.pageWaitSeconds",
            .integer,
            range: 1...300,
            .atOnce,
            "How long the person's last page waits for the sinks before it says the hand-over goes on in the background."
        ) { "\($0.callbackDelivery.pageWaitSeconds)" },
        .init(
            "callbacks.spoolFile",
            .string,
            .atOnce,
            "Where deliveries not yet done are kept across restarts (memory store only)."
        ) { $0.callbackDelivery.spoolFile },
        .init("outcome.idTokenClaims", .list, .atOnce, "Claims of the validated ID token put in a successful outcome.") {
            list($0.outcome.idTokenClaims)
        },
        .init("outcome.userinfoClaims", .list, .atOnce, "Claims of the userinfo endpoint put in a successful outcome.") {
            list($0.outcome.userinfoClaims)
        },
        .init("completion.redirectURL", .string, .atOnce, "Where the browser goes after a successful sign-in.") {
            $0.completion.redirectURL?.absoluteString
        },
        .init("completion.confirmCancel", .boolean, .atOnce, "Whether \"Cancel sign-in\" asks first.") {
            "\($0.completion.confirmCancel)"
        },
    ]

    /// How the pages wait, reset and look.
    private static let pages: [ConfigurationKey] = [
        .init(
            "polling.defaultIntervalSeconds",
            .integer,
            range: 1...60,
            .atOnce,
            "How often a waiting page checks when the upstream names no interval."
        ) { "\($0.polling.defaultIntervalSeconds)" },
        .init("polling.maximumWaitSeconds", .integer, range: 10...3600, .atOnce, "The longest wait on one waiting step.") {
            "\($0.polling.maximumWaitSeconds)"
        },
        .init("kiosk.enabled", .boolean, .afterRestart(\.kiosk.enabled), "A shared screen that resets itself for the next person.") {
            "\($0.kiosk.enabled)"
        },
        .init("kiosk.resetAfterSeconds", .integer, range: 1...600, .atOnce, "How long the final page stays in kiosk mode.") {
            "\($0.kiosk.resetAfterSeconds)"
        },
        .init(
            "kiosk.idleResetSeconds",
            .integer,
            range: 10...3600,
            .atOnce,
            "How long a page may stay untouched in kiosk mode before the sign-in starts over."
        ) { "\($0.kiosk.idleResetSeconds)" },
        .init("theme.productName", .string, .atOnce, "Shown above every page's heading and in the browser tab.") {
            $0.theme.productName
        },
        .init("theme.logoFile", .string, .atOnce, "An image shown above every page's heading (at most 256 KiB).") {
            $0.theme.logo.map { "\($0.contentType), \($0.bytes.count) bytes" }
        },
        .init("theme.colorScheme", .string, .atOnce, "auto (follow the device), light or dark.") { $0.theme.colorScheme.rawValue },
        .init("theme.textColor", .string, .atOnce, "The light appearance's text colour.") { $0.theme.light.text },
        .init("theme.backgroundColor", .string, .atOnce, "The light appearance's background.") { $0.theme.light.background },
        .init("theme.accentColor", .string, .atOnce, "The light appearance's links and buttons.") { $0.theme.light.accent },
        .init("theme.errorColor", .string, .atOnce, "The light appearance's errors.") { $0.theme.light.error },
        .init("theme.borderColor", .string, .atOnce, "The light appearance's field borders.") { $0.theme.light.border },
        .init("theme.darkTextColor", .string, .atOnce, "The dark appearance's text colour.") { $0.theme.dark.text },
        .init("theme.darkBackgroundColor", .string, .atOnce, "The dark appearance's background.") { $0.theme.dark.background },
        .init("theme.darkAccentColor", .string, .atOnce, "The dark appearance's links and buttons.") { $0.theme.dark.accent },
        .init("theme.darkErrorColor", .string, .atOnce, "The dark appearance's errors.") { $0.theme.dark.error },
        .init("theme.darkBorderColor", .string, .atOnce, "The dark appearance's field borders.") { $0.theme.dark.border },
    ]

    private static let metrics: [ConfigurationKey] = [
        .init("metrics.enabled", .boolean, .afterRestart(\.metrics), "Serve Prometheus metrics on a listener of their own.") {
            "\($0.metrics.enabled)"
        },
        .init("metrics.host", .string, .afterRestart(\.metrics), "The metrics listener's address (keep it internal).") { $0.metrics.host },
        .init("metrics.port", .integer, range: 0...65_535, .afterRestart(\.metrics), "The metrics listener's port.") { "\($0.metrics.port)" },
    ]

    private static let devices: [ConfigurationKey] = [
        .init(
            "devices.enabled",
            .boolean,
            .afterRestart(\.devices.enabled),
            "Serve the device authorization grant (RFC 8628) for headless hosts."
        ) { "\($0.devices.enabled)" },
        .init("devices.clients", .records, .atOnce, "The devices allowed to ask: id, name, secretFile, receivesDPoPKey.") {
            list($0.devices.clients.map(\.id))
        },
        .init(
            "devices.codeLifetimeSeconds",
            .integer,
            range: 60...3600,
            .atOnce,
            "How long a device code and its user code work."
        ) { "\($0.devices.codeLifetimeSeconds)" },
        .init(
            "devices.pollIntervalSeconds",
            .integer,
            range: 1...60,
            .atOnce,
            "The least time between two polls of one device code."
        ) { "\($0.devices.pollIntervalSeconds)" },
        .init(
            "devices.maximumWrongCodesPerAddress",
            .integer,
            range: 1...10_000,
            .atOnce,
            "The most wrong user codes per client address in wrongCodeWindowSeconds."
        ) { "\($0.devices.maximumWrongCodesPerAddress)" },
        .init(
            "devices.maximumWrongCodes",
            .integer,
            range: 1...1_000_000,
            .atOnce,
            "The most wrong user codes from all addresses together in wrongCodeWindowSeconds."
        ) { "\($0.devices.maximumWrongCodes)" },
        .init(
            "devices.wrongCodeWindowSeconds",
            .integer,
            range: 1...86_400,
            .atOnce,
            "The sliding window wrong codes are counted in."
        ) { "\($0.devices.wrongCodeWindowSeconds)" },
        .init(
            "devices.maximumEntriesPerCode",
            .integer,
            range: 1...100,
            .atOnce,
            "How many times one user code may be entered."
        ) { "\($0.devices.maximumEntriesPerCode)" },
        .init(
            "devices.maximumPendingAuthorizations",
            .integer,
            range: 1...10_000_000,
            .atOnce,
            "The most device sign-ins waiting at once."
        ) { "\($0.devices.maximumPendingAuthorizations)" },
        .init(
            "devices.maximumPendingPerAddress",
            .integer,
            range: 1...10_000_000,
            .atOnce,
            "The most of them from one client address, for public clients."
        ) { "\($0.devices.maximumPendingPerAddress)" },
        .init(
            "devices.refreshTokenKeyFile",
            .string,
            .afterRestart(\.devices.refreshTokenKeys),
            "Keys, one per line, that seal the refresh tokens handed to devices."
        ) { $0.devices.refreshTokenKeys.isEmpty ? nil : fingerprint($0.devices.refreshTokenKeys.map { $0.base64EncodedString() }.joined()) },
    ]

    private static let startLinks: [ConfigurationKey] = [
        .init(
            "startLinks.secretFile",
            .string,
            // Links are served or not from the start; a rotated secret applies at once.
            .afterRestart { applied, running in
                if applied.startLinks.enabled != running.startLinks.enabled { applied.startLinks = running.startLinks }
            },
            "The secret that signs start links (at least 32 characters); unset: no start links."
        ) { $0.startLinks.enabled ? "set" : nil },
        .init(
            "startLinks.previousSecretFile",
            .string,
            .atOnce,
            "The secret before a rotation: links it signed work until they expire."
        ) { $0.startLinks.previousSecret == nil ? nil : "set" },
        .init(
            "startLinks.allowedParameters",
            .list,
            .atOnce,
            "The authorize parameters a link may set: login_hint, ui_locales, acr_values, prompt."
        ) { list($0.startLinks.allowedParameters) },
        .init(
            "startLinks.maximumLifetimeSeconds",
            .integer,
            range: 10...86_400,
            .atOnce,
            "The longest a link may be valid."
        ) { "\($0.startLinks.maximumLifetimeSeconds)" },
    ]

    private static let logging: [ConfigurationKey] = [
        .init("logging.level", .string, .afterRestart(\.logging), "trace, debug, info, notice, warning, error or critical.") {
            $0.logging.level.rawValue
        },
        .init("logging.format", .string, .afterRestart(\.logging), "text (for people) or json (one object per line).") {
            $0.logging.format.rawValue
        },
    ]

    /// The keys by path.
    static let byPath: [String: ConfigurationKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.path, $0) })

    /// The keys by environment variable name.
    static let byEnvironmentName: [String: ConfigurationKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.environmentName, $0) })

    /// The groups of keys within a section (`upstream.endpoints` for `upstream.endpoints.token`): a mapping in the file.
    static let groups: Set<String> = Set(
        all.compactMap { key in
            let parts = key.path.split(separator: ".")
            return parts.count > 2 ? parts.dropLast().joined(separator: ".") : nil
        }
    )

    /// The sections, in order.
    static let sections: [String] = all.reduce(into: [String]()) { sections, key in
        if sections.last != key.section { sections.append(key.section) }
    }

    // MARK: - Reading values back

    /// A list as YAML writes it inline.
    private static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// A value of the real upstream's client; nil with the demo upstream.
    private static func haapi(_ configuration: GatewayConfiguration, _ read: (HAAPIClientConfiguration) -> String?) -> String? {
        if case .haapi(let client) = configuration.upstream { read(client) } else { nil }
    }

    /// A value of the demo upstream; nil with a real one.
    private static func demo(_ configuration: GatewayConfiguration, _ read: (DemoUpstreamSettings) -> String?) -> String? {
        if case .demo(let demo) = configuration.upstream { read(demo) } else { nil }
    }

    /// A value of the PostgreSQL store; nil with the memory store.
    private static func postgres(_ configuration: GatewayConfiguration, _ read: (PostgresStoreSettings) -> String?) -> String? {
        if case .postgres(let store) = configuration.sessions.store { read(store) } else { nil }
    }
}
