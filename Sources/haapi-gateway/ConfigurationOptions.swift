import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools

/// The options `serve` and `check-config` share: the configuration file and the flags that override its keys. Printed
/// (`description`, `debugDescription`; a service holding them is named so in debug lines), they show the flags given
/// with the value of a secret's flag redacted. Not `CustomReflectable`: swift-argument-parser finds the options through
/// their mirror.
struct ConfigurationOptions: ParsableArguments, CustomStringConvertible, CustomDebugStringConvertible {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            """
            YAML configuration file (default: $HAAPI_GATEWAY_CONFIG; for login, token, keep, logout, the credential helpers and proxy \
            else $XDG_CONFIG_HOME/haapi-gateway/config.yaml when present; else built-in defaults). Every key is explained in \
            config/haapi-gateway.yaml.
            """,
            valueName: "file"
        )
    )
    var configFile: String?

    @Option(help: ArgumentHelp("Address to bind (\(ConfigurationKey.serverHost.path), default 127.0.0.1).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("Port to bind; 0 picks a free port (\(ConfigurationKey.serverPort.path), default 8080).", valueName: "port"))
    var port: String?

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The origin browsers use; https enables Secure/__Host- cookies (\(ConfigurationKey.serverPublicURL.path)).",
            valueName: "url"
        )
    )
    var publicURL: String?

    @Option(
        help: ArgumentHelp(
            """
            The upstream HAAPI server's issuer (\(ConfigurationKey.upstreamBaseURL.path)): for Curity its anonymous endpoint, \
            https://<base-url>/oauth/v2/oauth-anonymous. Without it the embedded demo server is used.
            """,
            valueName: "url"
        )
    )
    var upstream: String?

    @Option(
        name: .customLong("client-id"),
        help: ArgumentHelp("OAuth client id at the upstream (\(ConfigurationKey.upstreamClientID.path)).", valueName: "id")
    )
    var clientID: String?

    @Option(
        name: .customLong("client-secret"),
        help: ArgumentHelp(
            """
            Client secret (\(ConfigurationKey.upstreamClientSecret.path)). Visible to other users in the process list: prefer \
            --client-secret-file or \(ConfigurationKey.upstreamClientSecret.environmentName).
            """,
            valueName: "secret"
        )
    )
    var clientSecret: String?

    @Option(
        name: .customLong("client-secret-file"),
        help: ArgumentHelp(
            """
            File holding the client secret (\(ConfigurationKey.upstreamClientSecretFile.path)); or set \
            \(ConfigurationKey.upstreamClientSecret.environmentName).
            """,
            valueName: "file"
        )
    )
    var clientSecretFile: String?

    @Option(
        name: .customLong("redirect-uri"),
        help: ArgumentHelp(
            "The client's registered redirect URI (\(ConfigurationKey.upstreamRedirectURI.path), default haapi:start).",
            valueName: "uri"
        )
    )
    var redirectURI: String?

    @Option(
        name: .customLong("callback"),
        help: ArgumentHelp(
            """
            Where each outcome goes: file:PATH, exec:PROGRAM or an https:// webhook (\(ConfigurationKey.callbacksSinks.path); repeatable, \
            replaces the file's list).
            """,
            valueName: "sink"
        )
    )
    var callbacks: [String] = []

    @Option(
        name: .customLong("webhook-secret-file"),
        help: ArgumentHelp("File holding the webhook signing secret (\(ConfigurationKey.callbacksWebhookSecretFile.path)).", valueName: "file")
    )
    var webhookSecretFile: String?

    @Option(
        help: ArgumentHelp(
            "Templates directory used instead of the built-in templates (\(ConfigurationKey.templatesDirectory.path)).",
            valueName: "dir"
        )
    )
    var templates: String?

    @Option(
        name: .customLong("template-overrides"),
        help: ArgumentHelp(
            "Directory of templates layered over the defaults, file by file (\(ConfigurationKey.templatesOverrideDirectory.path)).",
            valueName: "dir"
        )
    )
    var templateOverrides: String?

    @Flag(
        name: .customLong("demo-nonce"),
        help: "Make the embedded demo upstream require DPoP nonces (\(ConfigurationKey.demoRequireDPoPNonce.path))."
    )
    var demoNonce = false
    @Flag(
        name: .customLong("demo-strict"),
        help:
            """
            Run the embedded demo upstream in its strict mode: DPoP nonces per key, token-bound codes, a stickiness cookie \
            (\(ConfigurationKey.demoStrict.path)).
            """
    )
    var demoStrict = false

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (\(ConfigurationKey.loggingLevel.path)).", valueName: "level")
    )
    var logLevel: String?

    /// The flags that were given, by configuration key.
    var flagValues: [(key: ConfigurationKey, flag: String, value: ConfigurationValue.Content?)] {
        [
            (.serverHost, "--host", host.map { .scalar($0) }),
            (.serverPort, "--port", port.map { .scalar($0) }),
            (.serverPublicURL, "--public-url", publicURL.map { .scalar($0) }),
            (.upstreamBaseURL, "--upstream", upstream.map { .scalar($0) }),
            (.upstreamClientID, "--client-id", clientID.map { .scalar($0) }),
            (.upstreamClientSecret, "--client-secret", clientSecret.map { .scalar($0) }),
            (.upstreamClientSecretFile, "--client-secret-file", clientSecretFile.map { .scalar($0) }),
            (.upstreamRedirectURI, "--redirect-uri", redirectURI.map { .scalar($0) }),
            (.callbacksSinks, "--callback", callbacks.isEmpty ? nil : .list(callbacks)),
            (.callbacksWebhookSecretFile, "--webhook-secret-file", webhookSecretFile.map { .scalar($0) }),
            (.templatesDirectory, "--templates", templates.map { .scalar($0) }),
            (.templatesOverrideDirectory, "--template-overrides", templateOverrides.map { .scalar($0) }),
            (.demoRequireDPoPNonce, "--demo-nonce", demoNonce ? .scalar("true") : nil),
            (.demoStrict, "--demo-strict", demoStrict ? .scalar("true") : nil),
            (.loggingLevel, "--log-level", logLevel.map { .scalar($0) }),
        ]
    }

    /// The flags given that configure the gateway itself (all but `--log-level`), `--config` included.
    var localGatewayFlags: [String] {
        (configFile == nil ? [] : ["--config"]) + flagValues.filter { $0.value != nil && $0.flag != "--log-level" }.map(\.flag)
    }

    /// The flags given, a secret's value redacted (``ConfigurationKey/describing(flags:)``).
    var description: String {
        "ConfigurationOptions("
            + ((configFile.map { ["--config \($0)"] } ?? []) + [ConfigurationKey.describing(flags: flagValues)])
            .filter { !$0.isEmpty }.joined(separator: " ") + ")"
    }

    /// The same as ``description``.
    var debugDescription: String { description }

    /// The configuration file in use: `--config`, else `$HAAPI_GATEWAY_CONFIG`; for a host-side command (`login`,
    /// `token`, `keep`, `logout`, the credential helpers, `proxy`) else the user's own (``HostDirectory``) when present.
    func configurationFile(environment: [String: String], hostSide: Bool = false) -> String? {
        configFile ?? environment[ConfigurationLayers.configurationFileVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? (hostSide ? HostDirectory.configurationFile(environment: environment) : nil)
    }

    /// The configuration, or every problem on standard error and the process ended with its status (78; 66 when every
    /// problem is a file that cannot be read).
    func loadConfigurationOrExit() -> GatewayConfiguration {
        do {
            return try loadConfiguration()
        } catch {
            exitWith("haapi-gateway: \(error.description)", status: error.exitStatus)
        }
    }

    /// Loads file, environment and flags, and checks the templates; every problem is in the thrown error.
    /// - Parameter hostSide: Whether a host-side command loads it, which reads the user's configuration file too
    ///   (``configurationFile(environment:hostSide:)``).
    func loadConfiguration(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        hostSide: Bool = false
    ) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration.load(
            file: configurationFile(environment: environment, hostSide: hostSide),
            environment: environment,
            flags: flagValues,
            checkTemplates: true
        )
    }
}
