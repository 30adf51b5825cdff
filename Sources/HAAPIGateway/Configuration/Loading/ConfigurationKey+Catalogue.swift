extension ConfigurationKey {
    /// Every configuration key, in the order of `config/haapi-gateway.yaml` (which explains each one).
    public static let all: [ConfigurationKey] = [
        .init("server.host", .string),
        .init("server.port", .integer),
        .init("server.publicURL", .string),
        .init("server.maximumRequestBodyBytes", .integer),
        .init("server.drainSeconds", .integer),
        .init("server.healthEndpoints", .boolean),
        .init("server.trustedProxies", .list),
        .init("server.requestTimeoutSeconds", .integer),
        .init("server.maximumConnections", .integer),
        .init("server.maximumConnectionsPerAddress", .integer),
        .init("server.tlsCertificateFile", .string),
        .init("server.tlsKeyFile", .string),

        .init("upstream.baseURL", .string),
        .init("upstream.internalURL", .string),
        .init("upstream.issuer", .string),
        .init("upstream.endpoints.authorization", .string),
        .init("upstream.endpoints.token", .string),
        .init("upstream.endpoints.revocation", .string),
        .init("upstream.endpoints.jwks", .string),
        .init("upstream.endpoints.userinfo", .string),
        .init("upstream.clientID", .string),
        .init("upstream.clientAuthentication", .string),
        .init("upstream.clientSecret", .string, secret: true),
        .init("upstream.clientSecretFile", .string),
        .init("upstream.privateKeyFile", .string),
        .init("upstream.keyID", .string),
        .init("upstream.clientAssertionAlgorithm", .string),
        .init("upstream.allowUnauthenticatedClient", .boolean),
        .init("upstream.clientCertificateFile", .string),
        .init("upstream.trustRootsFile", .string),
        .init("upstream.redirectURI", .string),
        .init("upstream.scopes", .list),
        .init("upstream.timeoutSeconds", .integer),
        .init("upstream.bindTokensToDPoP", .boolean),
        .init("upstream.acrValues", .list),
        .init("upstream.prompt", .string),
        .init("upstream.uiLocales", .list),
        .init("upstream.loginHint", .string),
        .init("upstream.maxAgeSeconds", .integer),
        .init("upstream.claims", .string),

        .init("demo.requireDPoPNonce", .boolean),
        .init("demo.strict", .boolean),

        .init("sessions.idleTimeoutSeconds", .integer),
        .init("sessions.absoluteTimeoutSeconds", .integer),
        .init("sessions.maximumSessions", .integer),
        .init("sessions.maximumNewSessionsPerAddress", .integer),
        .init("sessions.newSessionWindowSeconds", .integer),
        .init("sessions.maximumFailedPostsPerSession", .integer),
        .init("sessions.maximumFailedPostsPerAddress", .integer),
        .init("sessions.failedPostWindowSeconds", .integer),
        .init("sessions.store", .string),
        .init("sessions.postgresURL", .string, secret: true),
        .init("sessions.postgresURLFile", .string),
        .init("sessions.encryptionKeysFile", .string),
        .init("sessions.synchronousCommit", .boolean),

        .init("templates.directory", .string),
        .init("templates.overrideDirectory", .string),

        .init("callbacks.sinks", .list),
        .init("callbacks.webhookSecret", .string, secret: true),
        .init("callbacks.webhookSecretFile", .string),
        .init("callbacks.previousWebhookSecretFile", .string),
        .init("callbacks.retryForSeconds", .integer),
        .init("callbacks.handOverSeconds", .integer),
        .init("callbacks.spoolFile", .string),

        .init("outcome.idTokenClaims", .list),
        .init("outcome.userinfoClaims", .list),

        .init("completion.redirectURL", .string),
        .init("completion.confirmCancel", .boolean),

        .init("polling.defaultIntervalSeconds", .integer),
        .init("polling.maximumWaitSeconds", .integer),

        .init("kiosk.enabled", .boolean),
        .init("kiosk.resetAfterSeconds", .integer),
        .init("kiosk.idleResetSeconds", .integer),

        .init("theme.productName", .string),
        .init("theme.logoFile", .string),
        .init("theme.colorScheme", .string),
        .init("theme.textColor", .string),
        .init("theme.backgroundColor", .string),
        .init("theme.accentColor", .string),
        .init("theme.errorColor", .string),
        .init("theme.borderColor", .string),
        .init("theme.darkTextColor", .string),
        .init("theme.darkBackgroundColor", .string),
        .init("theme.darkAccentColor", .string),
        .init("theme.darkErrorColor", .string),
        .init("theme.darkBorderColor", .string),

        .init("metrics.enabled", .boolean),
        .init("metrics.host", .string),
        .init("metrics.port", .integer),

        .init("devices.enabled", .boolean),
        .init("devices.clients", .records),
        .init("devices.codeLifetimeSeconds", .integer),
        .init("devices.pollIntervalSeconds", .integer),
        .init("devices.maximumWrongCodesPerAddress", .integer),
        .init("devices.maximumWrongCodes", .integer),
        .init("devices.wrongCodeWindowSeconds", .integer),
        .init("devices.maximumEntriesPerCode", .integer),
        .init("devices.maximumPendingAuthorizations", .integer),
        .init("devices.maximumPendingPerAddress", .integer),
        .init("devices.refreshTokenKeyFile", .string),

        .init("startLinks.secretFile", .string),
        .init("startLinks.previousSecretFile", .string),
        .init("startLinks.allowedParameters", .list),
        .init("startLinks.maximumLifetimeSeconds", .integer),

        .init("logging.level", .string),
        .init("logging.format", .string),
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
}
