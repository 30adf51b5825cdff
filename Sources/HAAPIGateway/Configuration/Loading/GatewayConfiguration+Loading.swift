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
    ///   - flags: Values given as command-line flags, with the keys they set.
    ///   - checkTemplates: Whether to load the templates and message catalogues too (what `serve` and `check-config`
    ///     do), so that their problems are listed with the others.
    /// - Throws: ``ConfigurationError`` listing every problem of every source.
    public static func load(
        file: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        flags: [(key: ConfigurationKey, flag: String, value: ConfigurationValue.Content?)] = [],
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
            host: reader.string(.serverHost) ?? defaults.host,
            port: reader.integer(.serverPort, default: defaults.port),
            publicBaseURL: reader.httpURL(.serverPublicURL),
            maximumRequestBodyBytes: reader.integer(
                .serverMaximumRequestBodyBytes,
                default: defaults.maximumRequestBodyBytes
            )
        )
        configuration.server.drainSeconds = reader.integer(.serverDrainSeconds, default: defaults.drainSeconds)
        configuration.server.stopSeconds = reader.integer(.serverStopSeconds, default: defaults.stopSeconds)
        configuration.server.healthEndpoints = reader.boolean(.serverHealthEndpoints, default: defaults.healthEndpoints)
        for entry in reader.list(.serverTrustedProxies) ?? [] {
            if let range = IPAddressRange(entry) {
                configuration.server.trustedProxies.append(range)
            } else {
                reader.problem(.serverTrustedProxies, "'\(entry)' is not an IP address or CIDR block (such as 127.0.0.1 or 10.0.0.0/8)")
            }
        }
        configuration.server.requestTimeoutSeconds = reader.integer(
            .serverRequestTimeoutSeconds,
            default: defaults.requestTimeoutSeconds
        )
        configuration.server.maximumConnections = reader.integer(.serverMaximumConnections, default: defaults.maximumConnections)
        configuration.server.maximumConnectionsPerAddress = reader.integer(
            .serverMaximumConnectionsPerAddress,
            default: defaults.maximumConnectionsPerAddress
        )
        if configuration.server.maximumConnectionsPerAddress > configuration.server.maximumConnections {
            reader.problem(
                .serverMaximumConnectionsPerAddress,
                "must not be larger than \(ConfigurationKey.serverMaximumConnections.path) (\(configuration.server.maximumConnections))"
            )
        }
        configuration.server.strictTransportSecuritySeconds = reader.integer(
            .serverStrictTransportSecuritySeconds,
            default: defaults.strictTransportSecuritySeconds
        )
        configuration.server.tls = Self.serverTLS(&reader)
        if configuration.server.host.trimmingCharacters(in: .whitespaces).isEmpty { reader.problem(.serverHost, "must not be empty") }
        if let url = configuration.server.publicBaseURL, !(url.path.isEmpty || url.path == "/") || url.query != nil || url.fragment != nil {
            reader.problem(.serverPublicURL, "must be an origin such as https://login.example.com (the gateway serves from /)")
        }

        configuration.upstream = resolveUpstream(&reader)

        // sessions
        let sessionDefaults = SessionSettings()
        configuration.sessions = SessionSettings(
            idleTimeoutSeconds: reader.integer(.sessionsIdleTimeoutSeconds, default: sessionDefaults.idleTimeoutSeconds),
            absoluteTimeoutSeconds: reader.integer(
                .sessionsAbsoluteTimeoutSeconds,
                default: sessionDefaults.absoluteTimeoutSeconds
            ),
            maximumSessions: reader.integer(.sessionsMaximumSessions, default: sessionDefaults.maximumSessions),
            maximumNewSessionsPerAddress: reader.integer(
                .sessionsMaximumNewSessionsPerAddress,
                default: sessionDefaults.maximumNewSessionsPerAddress
            ),
            newSessionWindowSeconds: reader.integer(
                .sessionsNewSessionWindowSeconds,
                default: sessionDefaults.newSessionWindowSeconds
            ),
            maximumFailedPostsPerSession: reader.integer(
                .sessionsMaximumFailedPostsPerSession,
                default: sessionDefaults.maximumFailedPostsPerSession
            ),
            maximumFailedPostsPerAddress: reader.integer(
                .sessionsMaximumFailedPostsPerAddress,
                default: sessionDefaults.maximumFailedPostsPerAddress
            ),
            failedPostWindowSeconds: reader.integer(
                .sessionsFailedPostWindowSeconds,
                default: sessionDefaults.failedPostWindowSeconds
            )
        )
        if configuration.sessions.absoluteTimeoutSeconds < configuration.sessions.idleTimeoutSeconds {
            reader.problem(.sessionsAbsoluteTimeoutSeconds, "must not be shorter than \(ConfigurationKey.sessionsIdleTimeoutSeconds.path)")
        }
        configuration.sessions.store = resolveSessionStore(&reader)

        // templates
        configuration.templates = TemplateSettings(
            directory: reader.filePath(.templatesDirectory),
            overrideDirectory: reader.filePath(.templatesOverrideDirectory)
        )
        if checkTemplates {
            do throws(GatewayError) {
                _ = try TemplateLibrary(settings: configuration.templates)
            } catch {
                reader.problem(inSection: "templates", error.message, unreadableInput: error.code == .unreadableInput)
            }
        }

        // callbacks
        configuration.callbacks = resolveCallbacks(&reader)
        configuration.callbackDelivery = CallbackDeliverySettings(
            retryForSeconds: reader.integer(.callbacksRetryForSeconds, default: CallbackDeliverySettings().retryForSeconds),
            handOverSeconds: reader.integer(.callbacksHandOverSeconds, default: CallbackDeliverySettings().handOverSeconds),
            pageWaitSeconds: reader.integer(.callbacksPageWaitSeconds, default: CallbackDeliverySettings().pageWaitSeconds)
        )
        if let spool = reader.filePath(.callbacksSpoolFile) {
            let directory = spool.deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
                reader.problem(.callbacksSpoolFile, "the directory of \(spool.path) does not exist")
            } else if let reason = FileAccess.reason(writingIn: directory) {
                // The gateway keeps the spool by writing a file beside it and moving it in place.
                reader.problem(.callbacksSpoolFile, "cannot write in \(directory): \(reason)", unreadableInput: true)
            }
            configuration.callbackDelivery.spoolFile = spool.path
        }

        configuration.outcome = resolveOutcome(&reader, scopes: configuration.upstream.scopes)

        // completion
        configuration.completion = CompletionSettings(
            redirectURL: reader.httpURL(.completionRedirectURL),
            confirmCancel: reader.boolean(.completionConfirmCancel, default: CompletionSettings().confirmCancel)
        )

        // polling
        let pollingDefaults = PollingSettings()
        configuration.polling = PollingSettings(
            defaultIntervalSeconds: reader.integer(.pollingDefaultIntervalSeconds, default: pollingDefaults.defaultIntervalSeconds),
            maximumWaitSeconds: reader.integer(.pollingMaximumWaitSeconds, default: pollingDefaults.maximumWaitSeconds)
        )

        // kiosk
        let kioskDefaults = KioskSettings()
        configuration.kiosk = KioskSettings(
            enabled: reader.boolean(.kioskEnabled, default: kioskDefaults.enabled),
            resetAfterSeconds: reader.integer(.kioskResetAfterSeconds, default: kioskDefaults.resetAfterSeconds),
            idleResetSeconds: reader.integer(.kioskIdleResetSeconds, default: kioskDefaults.idleResetSeconds)
        )

        configuration.theme = resolveTheme(&reader)

        // metrics
        let metricsDefaults = MetricsSettings()
        configuration.metrics = MetricsSettings(
            enabled: reader.boolean(.metricsEnabled, default: metricsDefaults.enabled),
            host: reader.string(.metricsHost) ?? metricsDefaults.host,
            port: reader.integer(.metricsPort, default: metricsDefaults.port)
        )
        if !configuration.server.healthEndpoints, !configuration.metrics.enabled {
            reader.problem(
                .serverHealthEndpoints,
                "is false, but \(ConfigurationKey.metricsEnabled.path) is not true: /healthz and /readyz would be served nowhere"
            )
        }
        if configuration.metrics.enabled, configuration.metrics.port != 0, configuration.metrics.port == configuration.server.port,
            configuration.metrics.host == configuration.server.host
        {
            reader.problem(.metricsPort, "must differ from \(ConfigurationKey.serverPort.path): metrics have a listener of their own")
        }

        configuration.devices = resolveDevices(&reader)
        // The device endpoints name their issuer and verification_uri after the request's Host unless server.publicURL
        // says it: anyone can send a Host (an IP address of theirs passes the trusted-host check), and a device would
        // show the person a link elsewhere. Only a gateway that listens on loopback alone (development) may do without.
        if configuration.devices.enabled, configuration.server.publicBaseURL == nil, !isLoopback(configuration.server.host) {
            reader.problem(
                .devicesEnabled,
                """
                needs \(ConfigurationKey.serverPublicURL.path) (the https origin people reach) when the gateway listens beyond loopback \
                (\(ConfigurationKey.serverHost.path) \(configuration.server.host)): the issuer and the verification_uri shown on devices would \
                otherwise follow the Host header any client can send
                """
            )
        }
        configuration.startLinks = resolveStartLinks(&reader)

        // logging
        if let level = reader.string(.loggingLevel) {
            if let parsed = Logger.Level(rawValue: level.lowercased()) {
                configuration.logging.level = parsed
            } else {
                reader.problem(.loggingLevel, "must be one of trace, debug, info, notice, warning, error, critical; got '\(level)'")
            }
        }

        if let format = reader.string(.loggingFormat) {
            if let parsed = LoggingSettings.Format(rawValue: format.lowercased()) {
                configuration.logging.format = parsed
            } else {
                reader.problem(.loggingFormat, "must be text or json; got '\(format)'")
            }
        }

        guard reader.problems.isEmpty else {
            var error = ConfigurationError(problems: reader.problems, unreadableInputs: reader.unreadableInputs)
            error.logging = configuration.logging
            throw error
        }
        return configuration
    }

    /// A problem under `key` when `url` is plain http to anything but a loopback address.
    /// - Parameters:
    ///   - subject: What the message is about, before "must use https" (empty: the key itself).
    ///   - reason: Why, after the loopback exception.
    static func requireHTTPS(
        _ reader: inout ConfigurationReader,
        _ key: ConfigurationKey,
        _ url: URL,
        subject: String = "",
        because reason: String? = nil
    ) {
        guard url.scheme?.lowercased() == "http", !isLoopback(url.host ?? "") else { return }
        reader.problem(key, "\(subject)must use https (plain http is accepted for loopback addresses only\(reason.map { ": \($0)" } ?? ""))")
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// `server.tlsCertificateFile` and `server.tlsKeyFile`: both or neither, each a readable PEM file that loads.
    private static func serverTLS(_ reader: inout ConfigurationReader) -> ServerTLSSettings? {
        let certificateSet = reader.isSet(.serverTlsCertificateFile), keySet = reader.isSet(.serverTlsKeyFile)
        guard certificateSet || keySet else { return nil }
        guard certificateSet && keySet else {
            reader.problem(
                certificateSet ? .serverTlsKeyFile : .serverTlsCertificateFile,
                "is required with \(certificateSet ? ConfigurationKey.serverTlsCertificateFile.path : ConfigurationKey.serverTlsKeyFile.path)"
            )
            return nil
        }
        guard let certificate = reader.fileContents(.serverTlsCertificateFile), let key = reader.fileContents(.serverTlsKeyFile) else {
            return nil
        }
        let settings = ServerTLSSettings(certificateChainPEM: certificate, privateKeyPEM: key)
        if (try? NIOSSLCertificate.fromPEMBytes(Array(certificate.utf8)))?.isEmpty != false {
            reader.problem(.serverTlsCertificateFile, "does not hold a PEM certificate")
            return nil
        }
        if (try? NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem)) == nil {
            reader.problem(.serverTlsKeyFile, "does not hold a PEM private key (PKCS#8, SEC1 or PKCS#1, unencrypted)")
            return nil
        }
        return settings
    }
}
