import Foundation
import HAAPI
import Logging
import NIOSSL

extension GatewayConfiguration {
    /// Loads the configuration from a YAML file (optional), the `HAAPI_GATEWAY_…` environment and flags, later sources
    /// winning, then resolves and validates it.
    /// - Parameters:
    ///   - file: The configuration file, or `nil` for defaults, environment and flags only.
    ///   - environment: The process environment.
    ///   - flags: Values given as command-line flags, by key path.
    ///   - checkTemplates: Whether to load the templates and message catalogues too (what `serve` and `check-config`
    ///     do), so that their problems are listed with the others.
    /// - Throws: ``ConfigurationError`` listing every problem of every source.
    public static func load(
        file: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        flags: [(path: String, flag: String, value: ConfigurationValue.Content?)] = [],
        checkTemplates: Bool = false
    ) throws(ConfigurationError) -> GatewayConfiguration {
        var layers = ConfigurationLayers()
        if let file {
            let (values, problems) = YAMLConfigurationFile.read(path: file)
            layers.add(values, problems: problems)
        }
        layers.addEnvironment(environment)
        layers.addFlags(flags)
        return try resolve(layers, checkTemplates: checkTemplates)
    }

    /// Turns raw layers into a configuration.
    /// - Parameters:
    ///   - layers: The raw values.
    ///   - checkTemplates: Whether to load the templates and message catalogues too.
    /// - Throws: ``ConfigurationError`` listing every problem.
    public static func resolve(_ layers: ConfigurationLayers, checkTemplates: Bool = false) throws(ConfigurationError) -> GatewayConfiguration {
        var reader = ConfigurationReader(layers)
        var configuration = GatewayConfiguration()

        // server
        let defaults = ServerSettings()
        configuration.server = ServerSettings(
            host: reader.string("server.host") ?? defaults.host,
            port: reader.integer("server.port", default: defaults.port),
            publicBaseURL: reader.httpURL("server.publicURL"),
            maximumRequestBodyBytes: reader.integer(
                "server.maximumRequestBodyBytes",
                default: defaults.maximumRequestBodyBytes
            )
        )
        configuration.server.drainSeconds = reader.integer("server.drainSeconds", default: defaults.drainSeconds)
        configuration.server.stopSeconds = reader.integer("server.stopSeconds", default: defaults.stopSeconds)
        configuration.server.healthEndpoints = reader.boolean("server.healthEndpoints", default: defaults.healthEndpoints)
        for entry in reader.list("server.trustedProxies") ?? [] {
            if let range = IPAddressRange(entry) {
                configuration.server.trustedProxies.append(range)
            } else {
                reader.problem("server.trustedProxies", "'\(entry)' is not an IP address or CIDR block (such as 127.0.0.1 or 10.0.0.0/8)")
            }
        }
        configuration.server.requestTimeoutSeconds = reader.integer(
            "server.requestTimeoutSeconds",
            default: defaults.requestTimeoutSeconds
        )
        configuration.server.maximumConnections = reader.integer("server.maximumConnections", default: defaults.maximumConnections)
        configuration.server.maximumConnectionsPerAddress = reader.integer(
            "server.maximumConnectionsPerAddress",
            default: defaults.maximumConnectionsPerAddress
        )
        if configuration.server.maximumConnectionsPerAddress > configuration.server.maximumConnections {
            reader.problem(
                "server.maximumConnectionsPerAddress",
                "must not be larger than server.maximumConnections (\(configuration.server.maximumConnections))"
            )
        }
        configuration.server.strictTransportSecuritySeconds = reader.integer(
            "server.strictTransportSecuritySeconds",
            default: defaults.strictTransportSecuritySeconds
        )
        configuration.server.tls = Self.serverTLS(&reader)
        if configuration.server.host.trimmingCharacters(in: .whitespaces).isEmpty { reader.problem("server.host", "must not be empty") }
        if let url = configuration.server.publicBaseURL, !(url.path.isEmpty || url.path == "/") || url.query != nil || url.fragment != nil {
            reader.problem("server.publicURL", "must be an origin such as https://login.example.com (the gateway serves from /)")
        }

        configuration.upstream = resolveUpstream(&reader)

        // sessions
        let sessionDefaults = SessionSettings()
        configuration.sessions = SessionSettings(
            idleTimeoutSeconds: reader.integer("sessions.idleTimeoutSeconds", default: sessionDefaults.idleTimeoutSeconds),
            absoluteTimeoutSeconds: reader.integer(
                "sessions.absoluteTimeoutSeconds",
                default: sessionDefaults.absoluteTimeoutSeconds
            ),
            maximumSessions: reader.integer("sessions.maximumSessions", default: sessionDefaults.maximumSessions),
            maximumNewSessionsPerAddress: reader.integer(
                "sessions.maximumNewSessionsPerAddress",
                default: sessionDefaults.maximumNewSessionsPerAddress
            ),
            newSessionWindowSeconds: reader.integer(
                "sessions.newSessionWindowSeconds",
                default: sessionDefaults.newSessionWindowSeconds
            ),
            maximumFailedPostsPerSession: reader.integer(
                "sessions.maximumFailedPostsPerSession",
                default: sessionDefaults.maximumFailedPostsPerSession
            ),
            maximumFailedPostsPerAddress: reader.integer(
                "sessions.maximumFailedPostsPerAddress",
                default: sessionDefaults.maximumFailedPostsPerAddress
            ),
            failedPostWindowSeconds: reader.integer(
                "sessions.failedPostWindowSeconds",
                default: sessionDefaults.failedPostWindowSeconds
            )
        )
        if configuration.sessions.absoluteTimeoutSeconds < configuration.sessions.idleTimeoutSeconds {
            reader.problem("sessions.absoluteTimeoutSeconds", "must not be shorter than sessions.idleTimeoutSeconds")
        }
        configuration.sessions.store = resolveSessionStore(&reader)

        // templates
        configuration.templates = TemplateSettings(
            directory: reader.filePath("templates.directory"),
            overrideDirectory: reader.filePath("templates.overrideDirectory")
        )
        if checkTemplates {
            do throws(GatewayError) {
                _ = try TemplateLibrary(settings: configuration.templates)
            } catch {
                reader.problem("templates", error.message, unreadableInput: error.code == .unreadableInput)
            }
        }

        // callbacks
        configuration.callbacks = resolveCallbacks(&reader)
        configuration.callbackDelivery = CallbackDeliverySettings(
            retryForSeconds: reader.integer("callbacks.retryForSeconds", default: CallbackDeliverySettings().retryForSeconds),
            handOverSeconds: reader.integer("callbacks.handOverSeconds", default: CallbackDeliverySettings().handOverSeconds),
            pageWaitSeconds: reader.integer("callbacks.pageWaitSeconds", default: CallbackDeliverySettings().pageWaitSeconds)
        )
        if let spool = reader.filePath("callbacks.spoolFile") {
            let directory = spool.deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
                reader.problem("callbacks.spoolFile", "the directory of \(spool.path) does not exist")
            } else if let reason = FileAccess.reason(writingIn: directory) {
                // The gateway keeps the spool by writing a file beside it and moving it in place.
                reader.problem("callbacks.spoolFile", "cannot write in \(directory): \(reason)", unreadableInput: true)
            }
            configuration.callbackDelivery.spoolFile = spool.path
        }

        configuration.outcome = resolveOutcome(&reader, scopes: configuration.upstream.scopes)

        // completion
        configuration.completion = CompletionSettings(
            redirectURL: reader.httpURL("completion.redirectURL"),
            confirmCancel: reader.boolean("completion.confirmCancel", default: CompletionSettings().confirmCancel)
        )

        // polling
        let pollingDefaults = PollingSettings()
        configuration.polling = PollingSettings(
            defaultIntervalSeconds: reader.integer("polling.defaultIntervalSeconds", default: pollingDefaults.defaultIntervalSeconds),
            maximumWaitSeconds: reader.integer("polling.maximumWaitSeconds", default: pollingDefaults.maximumWaitSeconds)
        )

        // kiosk
        let kioskDefaults = KioskSettings()
        configuration.kiosk = KioskSettings(
            enabled: reader.boolean("kiosk.enabled", default: kioskDefaults.enabled),
            resetAfterSeconds: reader.integer("kiosk.resetAfterSeconds", default: kioskDefaults.resetAfterSeconds),
            idleResetSeconds: reader.integer("kiosk.idleResetSeconds", default: kioskDefaults.idleResetSeconds)
        )

        configuration.theme = resolveTheme(&reader)

        // metrics
        let metricsDefaults = MetricsSettings()
        configuration.metrics = MetricsSettings(
            enabled: reader.boolean("metrics.enabled", default: metricsDefaults.enabled),
            host: reader.string("metrics.host") ?? metricsDefaults.host,
            port: reader.integer("metrics.port", default: metricsDefaults.port)
        )
        if !configuration.server.healthEndpoints, !configuration.metrics.enabled {
            reader.problem("server.healthEndpoints", "is false, but metrics.enabled is not true: /healthz and /readyz would be served nowhere")
        }
        if configuration.metrics.enabled, configuration.metrics.port != 0, configuration.metrics.port == configuration.server.port,
            configuration.metrics.host == configuration.server.host
        {
            reader.problem("metrics.port", "must differ from server.port: metrics have a listener of their own")
        }

        configuration.devices = resolveDevices(&reader)
        // The device endpoints name their issuer and verification_uri after the request's Host unless server.publicURL
        // says it: anyone can send a Host (an IP address of theirs passes the trusted-host check), and a device would
        // show the person a link elsewhere. Only a gateway that listens on loopback alone (development) may do without.
        if configuration.devices.enabled, configuration.server.publicBaseURL == nil, !isLoopback(configuration.server.host) {
            reader.problem(
                "devices.enabled",
                "needs server.publicURL (the https origin people reach) when the gateway listens beyond loopback (server.host \(configuration.server.host)): the issuer and the verification_uri shown on devices would otherwise follow the Host header any client can send"
            )
        }
        configuration.startLinks = resolveStartLinks(&reader)

        // logging
        if let level = reader.string("logging.level") {
            if let parsed = Logger.Level(rawValue: level.lowercased()) {
                configuration.logging.level = parsed
            } else {
                reader.problem("logging.level", "must be one of trace, debug, info, notice, warning, error, critical; got '\(level)'")
            }
        }

        if let format = reader.string("logging.format") {
            if let parsed = LoggingSettings.Format(rawValue: format.lowercased()) {
                configuration.logging.format = parsed
            } else {
                reader.problem("logging.format", "must be text or json; got '\(format)'")
            }
        }

        guard reader.problems.isEmpty else {
            var error = ConfigurationError(problems: reader.problems, unreadableInputs: reader.unreadableInputs)
            error.logging = configuration.logging
            throw error
        }
        return configuration
    }

    /// The demo upstream unless `upstream.baseURL` is set; then a full HAAPI client configuration.
    private static func resolveUpstream(_ reader: inout ConfigurationReader) -> UpstreamSettings {
        // OAuth writes scopes space-separated (RFC 6749 §3.3: a scope token has no space), so "openid profile" is two
        // wherever it is written, as it would be in a request.
        let scopes =
            reader.list("upstream.scopes").map { $0.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) } }
            ?? DemoUpstreamSettings().scopes
        let timeout = reader.integer("upstream.timeoutSeconds", default: 5)
        // Scopes and the timeout apply to the demo upstream too; every other upstream key needs a real one.
        let sharedKeys: Set = ["upstream.baseURL", "upstream.scopes", "upstream.timeoutSeconds"]
        let upstreamKeys = ConfigurationKey.all.filter { $0.section == "upstream" && !sharedKeys.contains($0.path) }
        guard reader.isSet("upstream.baseURL") else {
            for key in upstreamKeys where reader.isSet(key.path) {
                reader.problem(key.path, "is set, but upstream.baseURL is not (without it the embedded demo upstream is used)")
            }
            return .demo(
                DemoUpstreamSettings(
                    requireDPoPNonce: reader.boolean("demo.requireDPoPNonce", default: false),
                    strict: reader.boolean("demo.strict", default: false),
                    scopes: scopes,
                    timeoutSeconds: timeout
                )
            )
        }
        for key in ["demo.requireDPoPNonce", "demo.strict"] where reader.isSet(key) {
            reader.problem(key, "applies to the embedded demo upstream only; remove it or upstream.baseURL")
        }
        let baseURL = reader.httpURL("upstream.baseURL") { text in
            // A host name alone (`idsvr.example.com`, `idsvr:8443`): the issuer a default Curity there has.
            guard !text.contains("/"), !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "-.:[]".contains($0) }) else { return nil }
            return "for a Curity Identity Server at that host, its issuer: https://\(text)/oauth/v2/oauth-anonymous"
        }
        if let baseURL { requireHTTPS(&reader, "upstream.baseURL", baseURL) }
        let clientID = reader.string("upstream.clientID")
        if clientID == nil { reader.problem("upstream.clientID", "is required when upstream.baseURL is set") }
        let method = reader.stringOrDefault("upstream.clientAuthentication")
        var authentication: ClientAuthentication?
        switch method {
        case "secret-basic", "secret-post":
            if reader.isSet("upstream.clientSecret") || reader.isSet("upstream.clientSecretFile") {
                if let secret = reader.secret("upstream.clientSecret", fileKey: "upstream.clientSecretFile") {
                    authentication = method == "secret-basic" ? .secretBasic(secret) : .secretPost(secret)
                }
            } else {
                reader.problem(
                    "upstream.clientSecret",
                    "\(method) needs upstream.clientSecret or upstream.clientSecretFile (or \(ConfigurationKey.byPath["upstream.clientSecret"]!.environmentName))"
                )
            }
        case "secret-jwt":
            if reader.isSet("upstream.clientSecret") || reader.isSet("upstream.clientSecretFile") {
                if let secret = reader.secret("upstream.clientSecret", fileKey: "upstream.clientSecretFile") { authentication = .secretJWT(secret) }
            } else {
                reader.problem(
                    "upstream.clientSecret",
                    "secret-jwt needs upstream.clientSecret or upstream.clientSecretFile (the HS256 key, at least 32 bytes)"
                )
            }
        case "private-key-jwt":
            let name = reader.stringOrDefault("upstream.clientAssertionAlgorithm")
            let algorithm = ClientAssertionAlgorithm(rawValue: name.uppercased())
            if algorithm == nil {
                reader.problem("upstream.clientAssertionAlgorithm", "must be ES256, RS256 or PS256; got '\(name)'")
            }
            if reader.isSet("upstream.privateKeyFile") {
                if let pem = reader.fileContents("upstream.privateKeyFile"), let algorithm {
                    authentication = .privateKeyJWT(privateKeyPEM: pem, keyID: reader.string("upstream.keyID"), algorithm: algorithm)
                }
            } else {
                reader.problem(
                    "upstream.privateKeyFile",
                    "private-key-jwt needs upstream.privateKeyFile (a PEM P-256 key for ES256, RSA for RS256 or PS256)"
                )
            }
        case "mtls":
            if reader.isSet("upstream.clientCertificateFile"), reader.isSet("upstream.privateKeyFile") {
                if let certificate = reader.fileContents("upstream.clientCertificateFile"), let key = reader.fileContents("upstream.privateKeyFile") {
                    authentication = .mutualTLS(certificatePEM: certificate, privateKeyPEM: key)
                }
            } else {
                reader.problem("upstream.clientAuthentication", "mtls needs upstream.clientCertificateFile and upstream.privateKeyFile")
            }
        case "none":
            // A HAAPI client without authentication relies on attestation, which a server cannot produce; Curity most
            // likely refuses it a HAAPI token ([CLIENTAUTH], notes 1.2). Only when the person says their server allows it.
            if reader.booleanOrDefault("upstream.allowUnauthenticatedClient") {
                authentication = ClientAuthentication.none
            } else {
                reader.problem(
                    "upstream.clientAuthentication",
                    "none cannot work against a Curity server: a HAAPI client without authentication must attest, and a gateway cannot; use secret-basic, secret-post, secret-jwt, private-key-jwt or mtls (or set upstream.allowUnauthenticatedClient: true if your server really allows it)"
                )
            }
        default:
            reader.problem(
                "upstream.clientAuthentication",
                "must be secret-basic, secret-post, secret-jwt, private-key-jwt, mtls or none; got '\(method)'"
            )
        }
        if method != "private-key-jwt", reader.isSet("upstream.clientAssertionAlgorithm") {
            reader.problem("upstream.clientAssertionAlgorithm", "applies to private-key-jwt only")
        }
        if method != "none", reader.isSet("upstream.allowUnauthenticatedClient") {
            reader.problem("upstream.allowUnauthenticatedClient", "applies to clientAuthentication: none only")
        }
        let trustRoots = reader.isSet("upstream.trustRootsFile") ? reader.fileContents("upstream.trustRootsFile").map { [$0] } ?? [] : []
        let parameters = AuthorizationParameters(
            acrValues: reader.list("upstream.acrValues") ?? [],
            prompt: reader.string("upstream.prompt"),
            uiLocales: reader.list("upstream.uiLocales") ?? [],
            loginHint: reader.string("upstream.loginHint"),
            maxAgeSeconds: reader.isSet("upstream.maxAgeSeconds") ? reader.integer("upstream.maxAgeSeconds", default: 0) : nil,
            claims: reader.string("upstream.claims")
        )
        if let claims = parameters.claims, (try? JSONSerialization.jsonObject(with: Data(claims.utf8))) as? [String: Any] == nil {
            reader.problem("upstream.claims", "must be a JSON object (the OpenID Connect claims request)")
        }
        let bind = reader.booleanOrDefault("upstream.bindTokensToDPoP")
        let address = resolveUpstreamAddress(&reader, baseURL: baseURL, scopes: scopes)
        guard let baseURL, let clientID, let authentication else { return .demo(DemoUpstreamSettings()) }
        // The connect timeout also bounds the wait for a pooled connection (AsyncHTTPClient), so it is the whole timeout:
        // under many concurrent sign-ins a call may wait for a connection, and only the whole call has a limit.
        var client = HAAPIClientConfiguration(
            baseURL: baseURL,
            clientID: clientID,
            clientAuthentication: authentication,
            additionalTrustRootsPEM: trustRoots,
            redirectURI: reader.stringOrDefault("upstream.redirectURI"),
            scopes: scopes,
            authorizationParameters: parameters,
            connectTimeout: .seconds(timeout),
            requestTimeout: .seconds(timeout),
            bindTokensToDPoP: bind
        )
        client.endpoints = address.endpoints
        client.internalURL = address.internalURL
        // The client library's own checks (key material, URLs); claims were checked above under their own key.
        // (internalURL and the endpoints were checked above under their own keys.)
        for problem in client.problems where !problem.hasPrefix("claims") && !problem.hasPrefix("internalURL") && !problem.contains(" endpoint must")
        {
            reader.problem("upstream", problem)
        }
        return .haapi(client)
    }

    /// `file:PATH`, `exec:PROGRAM` and `https://…` webhooks (which need the webhook secret).
    private static func resolveCallbacks(_ reader: inout ConfigurationReader) -> [CallbackSinkConfiguration] {
        let entries = reader.list("callbacks.sinks") ?? []
        let needsSecret = entries.contains { $0.lowercased().hasPrefix("https:") || $0.lowercased().hasPrefix("http:") }
        var webhookSecret: String?
        if needsSecret {
            if reader.isSet("callbacks.webhookSecret") || reader.isSet("callbacks.webhookSecretFile") {
                webhookSecret = reader.secret("callbacks.webhookSecret", fileKey: "callbacks.webhookSecretFile")
                if let secret = webhookSecret, secret.utf8.count < 16 {
                    reader.problem(
                        reader.isSet("callbacks.webhookSecret") ? "callbacks.webhookSecret" : "callbacks.webhookSecretFile",
                        "must be at least 16 characters"
                    )
                }
            } else {
                reader.problem("callbacks.sinks", "a webhook needs callbacks.webhookSecret or callbacks.webhookSecretFile to sign its requests")
            }
        } else if reader.isSet("callbacks.webhookSecret") || reader.isSet("callbacks.webhookSecretFile") {
            reader.problem(
                reader.isSet("callbacks.webhookSecret") ? "callbacks.webhookSecret" : "callbacks.webhookSecretFile",
                "is set, but callbacks.sinks has no webhook"
            )
        }
        // During a rotation the previous secret signs too, so receivers not yet switched keep verifying.
        var previousWebhookSecret: String?
        if reader.isSet("callbacks.previousWebhookSecretFile") {
            previousWebhookSecret = reader.secretFile("callbacks.previousWebhookSecretFile")
            if !needsSecret { reader.problem("callbacks.previousWebhookSecretFile", "is set, but callbacks.sinks has no webhook") }
        }
        var sinks: [CallbackSinkConfiguration] = []
        // A relative file: path is a path like any other: in the file, relative to the file; by flag or environment, to
        // the working directory.
        let resolvingFile = { [reader] (path: String) in reader.filePath(path, within: "callbacks.sinks").path }
        for entry in entries {
            switch CallbackSinkConfiguration.parse(entry, resolvingFile: resolvingFile) {
            case .success(.webhook(let url, _, _)):
                requireHTTPS(&reader, "callbacks.sinks", url, subject: "webhook \(url.host ?? "") ")
                if let webhookSecret { sinks.append(.webhook(url: url, secret: webhookSecret, previousSecret: previousWebhookSecret)) }
            case .success(.file(let path)):
                var isDirectory: ObjCBool = false
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
                    reader.problem("callbacks.sinks", "the directory of \(entry) does not exist")
                } else if let reason = FileAccess.reason(writingIn: directory) {
                    reader.problem("callbacks.sinks", "\(entry): cannot write in \(directory): \(reason)", unreadableInput: true)
                }
                sinks.append(.file(path: path))
            case .success(.exec(let program)):
                if !FileManager.default.isExecutableFile(atPath: program) {
                    reader.problem("callbacks.sinks", "\(entry) is not an executable file")
                }
                sinks.append(.exec(program: program))
            case .failure(let error):
                reader.problem("callbacks.sinks", error.problems.joined(separator: "; "))
            }
        }
        return sinks
    }

    /// `outcome.idTokenClaims` and `outcome.userinfoClaims`: claim names, each once, none empty or in both lists; both
    /// need the `openid` scope (without it there is no ID token and no userinfo, OpenID Connect Core 1.0 §3.1.2.1).
    private static func resolveOutcome(_ reader: inout ConfigurationReader, scopes: [String]) -> OutcomeSettings {
        var settings = OutcomeSettings()
        var seen: [String: String] = [:]
        for key in ["outcome.idTokenClaims", "outcome.userinfoClaims"] {
            var names: [String] = []
            for name in reader.list(key) ?? [] {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    reader.problem(key, "a claim name must not be empty")
                } else if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    reader.problem(key, "a claim name must not contain control characters")
                } else if let first = seen[trimmed] {
                    reader.problem(
                        key,
                        first == key ? "'\(trimmed)' is listed twice" : "'\(trimmed)' is also in \(first); take each claim from one source"
                    )
                } else {
                    seen[trimmed] = key
                    names.append(trimmed)
                }
            }
            if !names.isEmpty, !scopes.contains("openid") {
                reader.problem(
                    key,
                    "needs the openid scope in upstream.scopes (without it there is no \(key == "outcome.idTokenClaims" ? "ID token" : "userinfo"))"
                )
            }
            if key == "outcome.idTokenClaims" { settings.idTokenClaims = names } else { settings.userinfoClaims = names }
        }
        return settings
    }

    /// A problem under `key` when `url` is plain http to anything but a loopback address.
    /// - Parameters:
    ///   - subject: What the message is about, before "must use https" (empty: the key itself).
    ///   - reason: Why, after the loopback exception.
    static func requireHTTPS(_ reader: inout ConfigurationReader, _ key: String, _ url: URL, subject: String = "", because reason: String? = nil) {
        guard url.scheme?.lowercased() == "http", !isLoopback(url.host ?? "") else { return }
        reader.problem(key, "\(subject)must use https (plain http is accepted for loopback addresses only\(reason.map { ": \($0)" } ?? ""))")
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// `server.tlsCertificateFile` and `server.tlsKeyFile`: both or neither, each a readable PEM file that loads.
    private static func serverTLS(_ reader: inout ConfigurationReader) -> ServerTLSSettings? {
        let certificateSet = reader.isSet("server.tlsCertificateFile"), keySet = reader.isSet("server.tlsKeyFile")
        guard certificateSet || keySet else { return nil }
        guard certificateSet && keySet else {
            reader.problem(
                certificateSet ? "server.tlsKeyFile" : "server.tlsCertificateFile",
                "is required with \(certificateSet ? "server.tlsCertificateFile" : "server.tlsKeyFile")"
            )
            return nil
        }
        guard let certificate = reader.fileContents("server.tlsCertificateFile"), let key = reader.fileContents("server.tlsKeyFile") else {
            return nil
        }
        let settings = ServerTLSSettings(certificateChainPEM: certificate, privateKeyPEM: key)
        if (try? NIOSSLCertificate.fromPEMBytes(Array(certificate.utf8)))?.isEmpty != false {
            reader.problem("server.tlsCertificateFile", "does not hold a PEM certificate")
            return nil
        }
        if (try? NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem)) == nil {
            reader.problem("server.tlsKeyFile", "does not hold a PEM private key (PKCS#8, SEC1 or PKCS#1, unencrypted)")
            return nil
        }
        return settings
    }
}
