import Foundation
import HAAPI
import Logging

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
        // Each section in turn, in the order its problems are listed.
        configuration.server = resolveServer(&reader)
        configuration.upstream = resolveUpstream(&reader)
        configuration.sessions = resolveSessions(&reader)
        configuration.sessions.store = resolveSessionStore(&reader)
        configuration.templates = resolveTemplates(&reader, check: checkTemplates)
        configuration.callbacks = resolveCallbacks(&reader)
        configuration.callbackDelivery = resolveCallbackDelivery(&reader)
        configuration.outcome = resolveOutcome(&reader, scopes: configuration.upstream.scopes)
        configuration.completion = CompletionSettings(
            redirectURL: reader.httpURL(.completionRedirectURL),
            confirmCancel: reader.boolean(.completionConfirmCancel, default: CompletionSettings().confirmCancel)
        )
        let pollingDefaults = PollingSettings()
        configuration.polling = PollingSettings(
            defaultIntervalSeconds: reader.integer(.pollingDefaultIntervalSeconds, default: pollingDefaults.defaultIntervalSeconds),
            maximumWaitSeconds: reader.integer(.pollingMaximumWaitSeconds, default: pollingDefaults.maximumWaitSeconds)
        )
        let kioskDefaults = KioskSettings()
        configuration.kiosk = KioskSettings(
            enabled: reader.boolean(.kioskEnabled, default: kioskDefaults.enabled),
            resetAfterSeconds: reader.integer(.kioskResetAfterSeconds, default: kioskDefaults.resetAfterSeconds),
            idleResetSeconds: reader.integer(.kioskIdleResetSeconds, default: kioskDefaults.idleResetSeconds)
        )
        configuration.theme = resolveTheme(&reader)
        configuration.metrics = resolveMetrics(&reader, server: configuration.server)
        configuration.devices = resolveDevices(&reader)
        requirePublicURLForDevices(&reader, devices: configuration.devices, server: configuration.server)
        configuration.startLinks = resolveStartLinks(&reader)
        configuration.logging = resolveLogging(&reader)
        configuration.tracing = resolveTracing(&reader)
        guard reader.problems.isEmpty else {
            var error = ConfigurationError(problems: reader.problems, unreadableInputs: reader.unreadableInputs)
            error.logging = configuration.logging
            throw error
        }
        return configuration
    }

    /// `templates`: the directories, and with `check` the templates and catalogues loaded, their problems listed.
    private static func resolveTemplates(_ reader: inout ConfigurationReader, check: Bool) -> TemplateSettings {
        let templates = TemplateSettings(
            directory: reader.filePath(.templatesDirectory),
            overrideDirectory: reader.filePath(.templatesOverrideDirectory)
        )
        if check {
            do throws(GatewayError) {
                _ = try TemplateLibrary(settings: templates)
            } catch {
                reader.problem(inSection: "templates", error.message, unreadableInput: error.code == .unreadableInput)
            }
        }
        return templates
    }

    /// How the callbacks are delivered: retries, the hand-over, the page's wait and the spool file (its directory
    /// writable).
    private static func resolveCallbackDelivery(_ reader: inout ConfigurationReader) -> CallbackDeliverySettings {
        var delivery = CallbackDeliverySettings(
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
            delivery.spoolFile = spool.path
        }

        return delivery
    }

    /// `metrics`, and the health endpoints served somewhere: on the gateway's listener or on the metrics one, which is
    /// not the gateway's.
    private static func resolveMetrics(_ reader: inout ConfigurationReader, server: ServerSettings) -> MetricsSettings {
        let metricsDefaults = MetricsSettings()
        let metrics = MetricsSettings(
            enabled: reader.boolean(.metricsEnabled, default: metricsDefaults.enabled),
            host: reader.string(.metricsHost) ?? metricsDefaults.host,
            port: reader.integer(.metricsPort, default: metricsDefaults.port)
        )
        if !server.healthEndpoints, !metrics.enabled {
            reader.problem(
                .serverHealthEndpoints,
                "is false, but \(ConfigurationKey.metricsEnabled.path) is not true: /healthz and /readyz would be served nowhere"
            )
        }
        if metrics.enabled, metrics.port != 0, metrics.port == server.port, metrics.host == server.host {
            reader.problem(.metricsPort, "must differ from \(ConfigurationKey.serverPort.path): metrics have a listener of their own")
        }
        return metrics
    }

    /// The device endpoints name their issuer and verification_uri after the request's Host unless server.publicURL
    /// says it: anyone can send a Host (an IP address of theirs passes the trusted-host check), and a device would show
    /// the person a link elsewhere. Only a gateway that listens on loopback alone (development) may do without.
    private static func requirePublicURLForDevices(_ reader: inout ConfigurationReader, devices: DeviceSettings, server: ServerSettings) {
        guard devices.enabled, server.publicBaseURL == nil, !isLoopback(server.host) else { return }
        reader.problem(
            .devicesEnabled,
            "needs \(ConfigurationKey.serverPublicURL.path) (the https origin people reach) when the gateway listens beyond loopback (\(ConfigurationKey.serverHost.path) \(server.host)): the issuer and the verification_uri shown on devices would otherwise follow the Host header any client can send"
        )
    }

    /// `logging`: the level and the format.
    private static func resolveLogging(_ reader: inout ConfigurationReader) -> LoggingSettings {
        var logging = LoggingSettings()
        if let level = reader.string(.loggingLevel) {
            if let parsed = Logger.Level(rawValue: level.lowercased()) {
                logging.level = parsed
            } else {
                reader.problem(.loggingLevel, "must be one of trace, debug, info, notice, warning, error, critical; got '\(level)'")
            }
        }

        if let format = reader.string(.loggingFormat) {
            if let parsed = LoggingSettings.Format(rawValue: format.lowercased()) {
                logging.format = parsed
            } else {
                reader.problem(.loggingFormat, "must be text or json; got '\(format)'")
            }
        }

        return logging
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
}
