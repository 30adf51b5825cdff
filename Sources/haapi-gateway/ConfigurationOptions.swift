import ArgumentParser
import HAAPIGateway

/// The options `serve`, `check-config`, `doctor` and the host tools share: the configuration file and the flags that
/// override its keys, as ``ConfigurationFlags`` (which decides what they mean).
struct ConfigurationOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: .valued("file", "YAML configuration file (default: $HAAPI_GATEWAY_CONFIG; for login, token, keep, logout, the credential helpers and proxy else $XDG_CONFIG_HOME/haapi-gateway/config.yaml when present; else built-in defaults). Every key is explained in config/haapi-gateway.yaml."))
    var configFile: String?
    @Option(help: .valued("address", "Address to bind (\(ConfigurationKey.serverHost.path), default 127.0.0.1)."))
    var host: String?
    @Option(help: .valued("port", "Port to bind; 0 picks a free port (\(ConfigurationKey.serverPort.path), default 8080)."))
    var port: String?
    @Option(name: .customLong("public-url"), help: .valued("url", "The origin browsers use; https enables Secure/__Host- cookies (\(ConfigurationKey.serverPublicURL.path))."))
    var publicURL: String?
    @Option(help: .valued("url", "The upstream HAAPI server's issuer (\(ConfigurationKey.upstreamBaseURL.path)): for Curity its anonymous endpoint, https://<base-url>/oauth/v2/oauth-anonymous. Without it the embedded demo server is used."))
    var upstream: String?
    @Option(name: .customLong("client-id"), help: .valued("id", "OAuth client id at the upstream (\(ConfigurationKey.upstreamClientID.path))."))
    var clientID: String?
    @Option(name: .customLong("client-secret"), help: .valued("secret", "Client secret (\(ConfigurationKey.upstreamClientSecret.path)). Visible to other users in the process list: prefer --client-secret-file or \(ConfigurationKey.upstreamClientSecret.environmentName)."))
    var clientSecret: String?
    @Option(name: .customLong("client-secret-file"), help: .valued("file", "File holding the client secret (\(ConfigurationKey.upstreamClientSecretFile.path)); or set \(ConfigurationKey.upstreamClientSecret.environmentName)."))
    var clientSecretFile: String?
    @Option(name: .customLong("redirect-uri"), help: .valued("uri", "The client's registered redirect URI (\(ConfigurationKey.upstreamRedirectURI.path), default haapi:start)."))
    var redirectURI: String?
    @Option(name: .customLong("callback"), help: .valued("sink", "Where each outcome goes: file:PATH, exec:PROGRAM or an https:// webhook (\(ConfigurationKey.callbacksSinks.path); repeatable, replaces the file's list)."))
    var callbacks: [String] = []
    @Option(name: .customLong("webhook-secret-file"), help: .valued("file", "File holding the webhook signing secret (\(ConfigurationKey.callbacksWebhookSecretFile.path))."))
    var webhookSecretFile: String?
    @Option(help: .valued("dir", "Templates directory used instead of the built-in templates (\(ConfigurationKey.templatesDirectory.path))."))
    var templates: String?
    @Option(name: .customLong("template-overrides"), help: .valued("dir", "Directory of templates layered over the defaults, file by file (\(ConfigurationKey.templatesOverrideDirectory.path))."))
    var templateOverrides: String?
    @Flag(name: .customLong("demo-nonce"), help: "Make the embedded demo upstream require DPoP nonces (\(ConfigurationKey.demoRequireDPoPNonce.path)).")
    var demoNonce = false
    @Flag(name: .customLong("demo-strict"), help: "Run the embedded demo upstream in its strict mode: DPoP nonces per key, token-bound codes, a stickiness cookie (\(ConfigurationKey.demoStrict.path)).")
    var demoStrict = false
    @Option(name: .customLong("log-level"), help: .valued("level", "trace, debug, info, notice, warning, error or critical (\(ConfigurationKey.loggingLevel.path))."))
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
