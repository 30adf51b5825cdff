import Foundation
import HAAPI

extension GatewayConfiguration {
    /// The effective configuration in a few readable lines, with every secret replaced by ``SecretRedaction/marker``
    /// (`<redacted>`) and no URL's password (printed by `check-config` and logged at startup).
    public var summary: [String] {
        var lines: [String] = []
        let listen = "\(server.host):\(server.port)"
        let publicURL = server.publicBaseURL?.absoluteString ?? "\(server.tls == nil ? "http" : "https")://\(listen)"
        let perAddress = server.maximumConnectionsPerAddress == 0 ? "no cap per address" : "\(server.maximumConnectionsPerAddress) per address"
        let forwarded =
            server.trustedProxies.isEmpty ? "" : "; client addresses forwarded by \(server.trustedProxies.map(\.description).joined(separator: ", "))"
        lines.append(
            "server: listens on \(listen)\(server.tls == nil ? "" : " over HTTPS"); public URL \(publicURL); request bodies up to \(server.maximumRequestBodyBytes) bytes; drains \(server.drainSeconds) s on SIGTERM; a whole request within \(server.requestTimeoutSeconds) s; at most \(server.maximumConnections) connections, \(perAddress)\(forwarded)"
        )
        lines.append(upstreamSummary)
        let newSignIns = sessions.maximumNewSessionsPerAddress == 0 ? "unbounded" : "\(sessions.maximumNewSessionsPerAddress)"
        lines.append(
            "sessions: idle \(sessions.idleTimeoutSeconds) s, absolute \(sessions.absoluteTimeoutSeconds) s, at most \(sessions.maximumSessions); new sign-ins at most \(newSignIns) per address in \(sessions.newSessionWindowSeconds) s; failed posts at most \(sessions.maximumFailedPostsPerSession) per session and \(sessions.maximumFailedPostsPerAddress) per address in \(sessions.failedPostWindowSeconds) s"
        )
        switch sessions.store {
        case .memory:
            lines.append("session store: memory (this process only; a restart ends the sign-ins under way)")
        case .postgres(let store):
            let older = store.encryptionKeys.count > 1 ? ", \(store.encryptionKeys.count - 1) more opening older documents" : ""
            let commit =
                store.synchronousCommit
                ? "; every commit waits for the disk"
                : "; sign-in rows commit without waiting for the disk (\(ConfigurationKey.sessionsSynchronousCommit.path): false)"
            lines.append(
                "session store: PostgreSQL at \(store.url); documents sealed with AES-256-GCM under key \(store.encryptionKeys[0].idHex) (\(SecretRedaction.marker))\(older)\(commit)"
            )
        }
        lines.append(
            "templates: \(templates.directory?.path ?? "built in")\(templates.overrideDirectory.map { ", overrides from \($0.path)" } ?? "")"
        )
        if callbacks.isEmpty {
            lines.append("callbacks: none (the tokens of each sign-in are discarded)")
        } else {
            let hasWebhook = callbacks.contains { if case .webhook = $0 { true } else { false } }
            let spool =
                sessions.store != .memory
                ? ", kept meanwhile in the PostgreSQL outbox, where any replica delivers them\(callbackDelivery.spoolFile == nil ? "" : " (\(ConfigurationKey.callbacksSpoolFile.path) not used)")"
                : callbackDelivery.spoolFile.map { ", then kept in \($0) across restarts" } ?? ""
            lines.append(
                "callbacks: \(callbacks.map(\.description).joined(separator: ", "))\(hasWebhook ? " (webhook secret \(SecretRedaction.marker))" : ""); failed deliveries retried for \(callbackDelivery.retryForSeconds) s\(spool)"
            )
        }
        let idTokenClaims = outcome.idTokenClaims.isEmpty ? "" : "; ID token claims \(outcome.idTokenClaims.joined(separator: ", "))"
        let userinfo =
            outcome.userinfoClaims.isEmpty ? "; userinfo not fetched" : "; userinfo claims \(outcome.userinfoClaims.joined(separator: ", "))"
        lines.append("outcome: signInId, subject (the validated ID token's sub)\(idTokenClaims)\(userinfo)")
        lines.append(
            "completion: \(completion.redirectURL.map { "continue to \($0.absoluteString)" } ?? "the signed-in page"); cancel \(completion.confirmCancel ? "asks for confirmation" : "without confirmation")"
        )
        lines.append(
            "polling: every \(polling.defaultIntervalSeconds) s unless the server names an interval; at most \(polling.maximumWaitSeconds) s"
        )
        lines.append(
            kiosk.enabled
                ? "kiosk: on; the start page returns \(kiosk.resetAfterSeconds) s after a sign-in ends, and after \(kiosk.idleResetSeconds) s untouched"
                : "kiosk: off"
        )
        let palettes = [
            theme.colorScheme != .dark ? "light \(theme.light.accent) on \(theme.light.background)" : nil,
            theme.colorScheme != .light ? "dark \(theme.dark.accent) on \(theme.dark.background)" : nil,
        ].compactMap { $0 }
        let productName = theme.productName.isEmpty ? "no product name" : "product name \"\(theme.productName)\""
        let logo = theme.logo.map { "a \($0.contentType) logo of \($0.bytes.count) bytes" } ?? "no logo"
        lines.append("theme: \(productName); \(logo); colour scheme \(theme.colorScheme.rawValue) (\(palettes.joined(separator: ", ")))")
        lines.append(metrics.enabled ? "metrics: Prometheus text at http://\(metrics.host):\(metrics.port)/metrics" : "metrics: off")
        lines.append(devicesSummary)
        let previousSecret = startLinks.previousSecret == nil ? "" : ", previous secret \(SecretRedaction.marker)"
        let parameters = startLinks.allowedParameters.isEmpty ? "no parameters" : "may set \(startLinks.allowedParameters.joined(separator: ", "))"
        lines.append(
            startLinks.enabled
                ? "start links: signed (secret \(SecretRedaction.marker)\(previousSecret)), valid at most \(startLinks.maximumLifetimeSeconds) s, \(parameters)"
                : "start links: off"
        )
        lines.append("logging: \(logging.level.rawValue), \(logging.format.rawValue) lines on standard error")
        return lines.map(SecretRedaction.redactingURLPasswords)
    }

    /// The summary's `upstream:` line.
    private var upstreamSummary: String {
        switch upstream {
        case .demo(let demo):
            let mode =
                demo.strict
                ? "strict: nonces per key, token-bound codes, dpop_jkt and DPoP proofs required, stickiness cookie"
                : "DPoP nonces \(demo.requireDPoPNonce ? "on" : "off")"
            return
                "upstream: the embedded demo HAAPI server (\(mode)); scopes \(demo.scopes.joined(separator: " ")), timeout \(demo.timeoutSeconds) s"
        case .haapi(let client):
            let internalURL = client.internalURL.map { " reached through \($0.absoluteString)" } ?? ""
            let endpoints =
                client.endpoints.map { endpoints in
                    let named = endpoints.named.map { "\($0.name) \($0.url.absoluteString)" }.joined(separator: ", ")
                    return ", endpoints named (no discovery; issuer \(endpoints.issuer ?? "none"), \(named))"
                } ?? ""
            let parameters = client.authorizationParameters.queryItems.map { "\($0.0)=\($0.1)" }
            let trustRoots = client.additionalTrustRootsPEM.isEmpty ? "" : ", extra trust roots"
            let bound = client.bindTokensToDPoP ? ", tokens bound to DPoP" : ""
            let authorize = parameters.isEmpty ? "" : ", authorize parameters \(parameters.joined(separator: " "))"
            return
                "upstream: issuer \(client.baseURL.absoluteString)\(internalURL)\(endpoints), client \(client.clientID) with \(client.clientAuthentication), redirect URI \(client.redirectURI), scopes \(client.scopes.joined(separator: " ")), timeout \(client.requestTimeout.components.seconds) s\(trustRoots)\(bound)\(authorize)"
        }
    }

    /// The summary's `devices:` line.
    private var devicesSummary: String {
        guard devices.enabled else { return "devices: off" }
        let keys =
            devices.refreshTokenKeys.isEmpty
            ? (sessions.store == .memory
                ? "a key made at startup"
                : "keys derived from \(ConfigurationKey.sessionsEncryptionKeysFile.path) \(SecretRedaction.marker)")
            : "the \(devices.refreshTokenKeys.count == 1 ? "key" : "\(devices.refreshTokenKeys.count) keys") of \(ConfigurationKey.devicesRefreshTokenKeyFile.path) \(SecretRedaction.marker)"
        return
            "devices: on for \(devices.clients.map(\.id).joined(separator: ", ")); codes last \(devices.codeLifetimeSeconds) s, polled at most every \(devices.pollIntervalSeconds) s; wrong codes at most \(devices.maximumWrongCodesPerAddress) per address and \(devices.maximumWrongCodes) in all in \(devices.wrongCodeWindowSeconds) s, \(devices.maximumEntriesPerCode) entries per code, \(devices.maximumPendingAuthorizations) waiting (public clients' \(devices.maximumPendingPerAddress) per address); refresh tokens sealed with \(keys)"
    }

    /// Every setting whose value in effect is not its default, as `key: value` lines in the catalogue's order, secrets
    /// redacted (``ConfigurationKey/all``).
    public var settingsChangedFromDefaults: [String] {
        ConfigurationKey.all.compactMap { key in
            let value = key.displayValue(in: self)
            guard let value, value != key.defaultValue else { return nil }
            return "\(key.path): \(value)"
        }
    }
}
