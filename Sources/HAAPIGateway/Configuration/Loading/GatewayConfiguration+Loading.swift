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
                """
                needs server.publicURL (the https origin people reach) when the gateway listens beyond loopback (server.host \
                \(configuration.server.host)): the issuer and the verification_uri shown on devices would otherwise follow the Host \
                header any client can send
                """
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
