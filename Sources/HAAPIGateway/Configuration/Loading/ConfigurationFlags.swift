import Foundation

/// The configuration file and the flags a command was given (`serve`, `check-config`, `doctor`, `login` and the other host
/// tools): which key each flag sets (``values``), the flags that configure a gateway of the command's own
/// (``localGatewayFlags``), and the configuration they make with the file and the environment (``load(environment:userFile:)``).
/// Printed (`description`, `debugDescription`; a service holding them is named so in debug lines) or dumped (its
/// mirror), it shows the flags given with the value of a secret's flag redacted.
public struct ConfigurationFlags: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `--config`.
    public var configFile: String?
    /// `--host`.
    public var host: String?
    /// `--port`.
    public var port: String?
    /// `--public-url`.
    public var publicURL: String?
    /// `--upstream`.
    public var upstream: String?
    /// `--client-id`.
    public var clientID: String?
    /// `--client-secret`.
    public var clientSecret: String?
    /// `--client-secret-file`.
    public var clientSecretFile: String?
    /// `--redirect-uri`.
    public var redirectURI: String?
    /// `--callback`, repeated.
    public var callbacks: [String] = []
    /// `--webhook-secret-file`.
    public var webhookSecretFile: String?
    /// `--templates`.
    public var templates: String?
    /// `--template-overrides`.
    public var templateOverrides: String?
    /// `--demo-nonce`.
    public var demoNonce = false
    /// `--demo-strict`.
    public var demoStrict = false
    /// `--log-level`.
    public var logLevel: String?

    /// No file and no flag.
    public init() {}

    /// The flags, by configuration key: each with its value when it was given.
    public var values: [(key: ConfigurationKey, flag: String, value: ConfigurationValue.Content?)] {
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
    public var localGatewayFlags: [String] {
        (configFile == nil ? [] : ["--config"]) + values.filter { $0.value != nil && $0.flag != "--log-level" }.map(\.flag)
    }

    /// The flags given, a secret's value redacted (``ConfigurationKey/describing(flags:)``).
    public var description: String {
        let given = (configFile.map { ["--config \($0)"] } ?? []) + [ConfigurationKey.describing(flags: values)]
        return "ConfigurationFlags(" + given.filter { !$0.isEmpty }.joined(separator: " ") + ")"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The flags given as ``description`` has them, a secret's value left out.
    public var customMirror: Mirror { Mirror(self, children: ["flags": description], displayStyle: .struct) }

    /// The configuration file in use: `--config`, else `$HAAPI_GATEWAY_CONFIG`, else `userFile` (a host-side command's
    /// own configuration file, when present).
    public func configurationFile(environment: [String: String], userFile: String? = nil) -> String? {
        configFile ?? environment[ConfigurationLayers.configurationFileVariable].flatMap { $0.isEmpty ? nil : $0 } ?? userFile
    }

    /// Loads the file, the environment and the flags, and checks the templates; every problem is in the thrown error.
    /// - Parameter userFile: The file read when neither `--config` nor `$HAAPI_GATEWAY_CONFIG` names one.
    public func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        userFile: String? = nil
    ) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration.load(
            file: configurationFile(environment: environment, userFile: userFile),
            environment: environment,
            flags: values,
            checkTemplates: true
        )
    }
}
