import ArgumentParser
import HAAPIGateway

/// The options `serve`, `check-config`, `doctor` and the host tools share: the configuration file and the flags that
/// override its keys, as ``ConfigurationFlags`` (which decides what they mean).
struct ConfigurationOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: .valued("file", GatewayOptionHelp.configFile))
    var configFile: String?
    @Option(help: .valued("address", GatewayOptionHelp.host))
    var host: String?
    @Option(help: .valued("port", GatewayOptionHelp.port))
    var port: String?
    @Option(name: .customLong("public-url"), help: .valued("url", GatewayOptionHelp.publicURL))
    var publicURL: String?
    @Option(help: .valued("url", GatewayOptionHelp.upstream))
    var upstream: String?
    @Option(name: .customLong("client-id"), help: .valued("id", GatewayOptionHelp.clientID))
    var clientID: String?
    @Option(name: .customLong("client-secret"), help: .valued("secret", GatewayOptionHelp.clientSecret))
    var clientSecret: String?
    @Option(name: .customLong("client-secret-file"), help: .valued("file", GatewayOptionHelp.clientSecretFile))
    var clientSecretFile: String?
    @Option(name: .customLong("redirect-uri"), help: .valued("uri", GatewayOptionHelp.redirectURI))
    var redirectURI: String?
    @Option(name: .customLong("callback"), help: .valued("sink", GatewayOptionHelp.callbacks))
    var callbacks: [String] = []
    @Option(name: .customLong("webhook-secret-file"), help: .valued("file", GatewayOptionHelp.webhookSecretFile))
    var webhookSecretFile: String?
    @Option(help: .valued("dir", GatewayOptionHelp.templates))
    var templates: String?
    @Option(name: .customLong("template-overrides"), help: .valued("dir", GatewayOptionHelp.templateOverrides))
    var templateOverrides: String?
    @Flag(name: .customLong("demo-nonce"), help: .init(GatewayOptionHelp.demoNonce))
    var demoNonce = false
    @Flag(name: .customLong("demo-strict"), help: .init(GatewayOptionHelp.demoStrict))
    var demoStrict = false
    @Option(name: .customLong("log-level"), help: .valued("level", GatewayOptionHelp.logLevel))
    var logLevel: String?

    /// The file and flags given.
    var flags: ConfigurationFlags {
        var flags = ConfigurationFlags()
        (flags.configFile, flags.host, flags.port, flags.publicURL, flags.upstream) = (configFile, host, port, publicURL, upstream)
        (flags.clientID, flags.clientSecret, flags.clientSecretFile, flags.redirectURI) = (clientID, clientSecret, clientSecretFile, redirectURI)
        (flags.callbacks, flags.webhookSecretFile, flags.templates) = (callbacks, webhookSecretFile, templates)
        (flags.templateOverrides, flags.demoNonce, flags.demoStrict, flags.logLevel) = (templateOverrides, demoNonce, demoStrict, logLevel)
        return flags
    }

    /// The configuration, or every problem on standard error and the process ended with its status (78; 66 when every
    /// problem is a file that cannot be read).
    func loadConfigurationOrExit() -> GatewayConfiguration {
        do {
            return try flags.load()
        } catch {
            exitWith("haapi-gateway: \(error.description)", status: error.exitStatus)
        }
    }
}
