import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIHostTools

/// Issue #39 item 3: a configuration with every secret the catalogue declares, and every key and password beside them,
/// printed every way Swift prints a value (`description`, `debugDescription`, `dump`, interpolated into a log line) and
/// every way the gateway prints it (the summary, the settings changed), shows none of them.
@Suite("Secrets are never described: configuration, settings and their parts")
struct SecretFreeDescriptionTests {
    /// Every secret value of the configuration below, each unique.
    private struct Secrets {
        let unique = UUID().uuidString.lowercased()
        var client: String { "client-secret-\(unique)" }
        var webhook: String { "webhook-secret-\(unique)" }
        var previousWebhook: String { "previous-webhook-secret-\(unique)" }
        var databasePassword: String { "database-password-\(unique)" }
        var device: String { "device-secret-\(unique)" }
        var startLink: String { "start-link-secret-\(unique)-0123456789" }
        var previousStartLink: String { "previous-start-link-secret-\(unique)" }
        let sessionKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let refreshTokenKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()

        var all: [String] {
            [
                client, webhook, previousWebhook, databasePassword, device, startLink, previousStartLink, sessionKey, refreshTokenKey,
                "8hV5B5QwXiAthg80",  // in the TLS key's PEM
            ]
        }
    }

    /// Loads a configuration with every secret: the client secret from a flag, the webhook secret from the environment,
    /// the database URL's password from the file, and the rest from files the file names.
    private func loadEverySecret(_ secrets: Secrets) throws -> (GatewayConfiguration, ConfigurationLayers) {
        let directory = try Repository.temporaryDirectory()
        func file(_ name: String, _ text: String) throws {
            try (text + "\n").write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.appendingPathComponent(name).path)
        }
        try file("previous-webhook", secrets.previousWebhook)
        try file("device", secrets.device)
        try file("start", secrets.startLink)
        try file("previous-start", secrets.previousStartLink)
        try file("session-keys", secrets.sessionKey)
        try file("refresh-keys", secrets.refreshTokenKey)
        try file("tls.crt", TLSTestMaterial.serverCertificatePEM)
        try file("tls.key", TLSTestMaterial.serverPrivateKeyPEM)
        try file(
            "gateway.yaml",
            """
            server:
              publicURL: https://login.example.com
              tlsCertificateFile: tls.crt
              tlsKeyFile: tls.key
            upstream:
              baseURL: https://idp.example/oauth/v2/oauth-anonymous
              clientID: gateway
            callbacks:
              sinks: ["https://hooks.example/signed-in"]
              previousWebhookSecretFile: previous-webhook
            sessions:
              store: postgres
              postgresURL: postgres://gateway:\(secrets.databasePassword)@db.example/haapi
              encryptionKeysFile: session-keys
            devices:
              enabled: true
              refreshTokenKeyFile: refresh-keys
              clients:
                - id: build-host
                  name: Build host
                  secretFile: device
            startLinks:
              secretFile: start
              previousSecretFile: previous-start
            """
        )
        let path = directory.appendingPathComponent("gateway.yaml").path
        let environment = ["HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET": secrets.webhook]
        let flags: [(key: ConfigurationKey, flag: String, value: ConfigurationValue.Content?)] = [
            (.upstreamClientSecret, "--client-secret", .scalar(secrets.client))
        ]
        let configuration = try GatewayConfiguration.load(file: path, environment: environment, flags: flags)
        var layers = ConfigurationLayers()
        layers.add(YAMLConfigurationFile.read(path: path).values)
        layers.addEnvironment(environment)
        layers.addFlags(flags)
        return (configuration, layers)
    }

    /// Every way a value is printed.
    private func printed(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped, "\(value)"]
    }

    @Test("the configuration and every part of it that holds a secret print none, however printed")
    func configurationPrintsNoSecret() throws {
        let secrets = Secrets()
        let (configuration, layers) = try loadEverySecret(secrets)
        // The configuration really holds them.
        #expect(configuration.startLinks.secret == secrets.startLink)
        #expect(configuration.devices.clients.first?.secret == secrets.device)
        #expect(configuration.callbacks.first?.webhookSecret == secrets.webhook)
        guard case .postgres(let store) = configuration.sessions.store, case .haapi(let upstream) = configuration.upstream else {
            Issue.record("expected PostgreSQL and a real upstream")
            return
        }
        #expect(store.url.password == secrets.databasePassword)
        #expect(upstream.clientAuthentication == .secretBasic(secrets.client))
        let parts: [(String, Any)] = [
            ("the configuration", configuration), ("layers", layers), ("upstream", configuration.upstream), ("client", upstream),
            ("client authentication", upstream.clientAuthentication), ("server", configuration.server),
            ("TLS", configuration.server.tls as Any), ("sessions", configuration.sessions), ("store", store), ("database URL", store.url),
            ("session keys", store.encryptionKeys), ("callbacks", configuration.callbacks), ("devices", configuration.devices),
            ("device client", configuration.devices.clients), ("start links", configuration.startLinks),
            ("device credentials", DeviceClientCredentials(clientID: "build-host", secret: secrets.device)),
            ("webhook sink", WebhookCallbackSink(url: URL(string: "https://hooks.example/signed-in")!, secret: secrets.webhook)),
        ]
        for (name, part) in parts {
            for text in printed(part) {
                for secret in secrets.all {
                    #expect(!text.contains(secret), "\(name) printed shows \(secret.prefix(20))…: \(text.prefix(400))")
                }
            }
        }
        let shown = (configuration.summary + configuration.settingsChangedFromDefaults).joined(separator: "\n")
        for secret in secrets.all { #expect(!shown.contains(secret), "the summary shows \(secret.prefix(20))…") }
        #expect(String(describing: configuration.startLinks).contains("secret: <redacted>"))
        #expect(String(describing: configuration.devices.clients).contains("id: build-host, name: Build host, secret: <redacted>"))
        #expect(layers.description.contains("upstream.clientSecret (flag --client-secret)"))
    }

    @Test("flags print as given but for a secret's, whose value is <redacted>, and a URL's password")
    func flagsPrintNoSecret() {
        let text = ConfigurationKey.describing(flags: [
            (.serverPort, "--port", .scalar("0")),
            (.upstreamClientSecret, "--client-secret", .scalar("flag-secret")),
            (.upstreamBaseURL, "--upstream", .scalar("https://user:url-password@idp.example/x")),
            (.upstreamClientID, "--client-id", nil),
            (.callbacksSinks, "--callback", .list(["file:/a", "file:/b"])),
        ])
        #expect(text == "--port 0 --client-secret <redacted> --upstream https://user:<redacted>@idp.example/x --callback file:/a --callback file:/b")
    }
}
