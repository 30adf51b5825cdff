import Foundation
import Testing

@testable import GatewayTestSupport

/// `haapi-gateway check-config` and `serve` with bad configuration, run as the built binary.
@Suite(.startsPrograms()) struct CheckConfigCommandTests {
    @Test func theShippedConfigurationIsValidAndEqualsTheDefaults() async throws {
        // check-config takes only the file; templates come from the default lookup, so these run in the repository.
        let process = try await runGatewayInRepository(["check-config", "config/haapi-gateway.yaml"])
        #expect(process.status == 0, "\(process.standardError)")
        #expect(process.standardOutput.contains("configuration OK"))
        let empty = try Repository.temporaryDirectory().appendingPathComponent("empty.yaml")
        try "# nothing set\n".write(to: empty, atomically: true, encoding: .utf8)
        let defaults = try await runGatewayInRepository(["check-config", empty.path])
        #expect(defaults.status == 0, "\(defaults.standardError)")
        let summary = { (text: String) in text.split(separator: "\n").dropFirst().joined(separator: "\n") }
        #expect(summary(process.standardOutput) == summary(defaults.standardOutput), "the shipped file must equal the built-in defaults")
    }

    /// The example's own check line, as its header writes it (the secrets from the environment).
    @Test func theCurityExampleIsValidWithItsSecretsFromTheEnvironment() async throws {
        let result = try await runGatewayInRepository(
            ["check-config", "config/examples/curity.yaml"],
            environment: [
                "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": "canary-client-secret-0f9a",
                "HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET": "a-webhook-secret-of-some-length",
            ]
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("https://idsvr.example.com/"))
        #expect(result.standardOutput.contains("<redacted>"))
        #expect(!result.standardOutput.contains("canary-client-secret-0f9a"))
        #expect(!result.standardOutput.contains("a-webhook-secret-of-some-length"))
        // What the file changes, setting by setting, from the declarations.
        #expect(result.standardOutput.contains("settings changed from the defaults:"))
        #expect(result.standardOutput.contains("    upstream.baseURL: https://idsvr.example.com/oauth/v2/oauth-anonymous"))
        #expect(result.standardOutput.contains("    upstream.clientSecret: <redacted>"))
    }

    /// Issue #39: a password written into a URL was echoed in the problem line. It reads `<redacted>`, in `check-config`'s
    /// lines and in `serve`'s failure to start, as text and as JSON.
    @Test func aPasswordInAURLIsNeverEchoedInAProblemLine() async throws {
        let file = try Repository.temporaryDirectory().appendingPathComponent("gateway.yaml")
        try """
        upstream:
          baseURL: https://gateway:url-password-7c1e@idsvr.example.com/oauth/v2/oauth-anonymous
          clientID: gateway
        """.write(to: file, atomically: true, encoding: .utf8)
        let check = try await runGatewayInRepository(["check-config", file.path])
        let serve = try await runGatewayInRepository(["serve", "--config", file.path])
        let json = try await runGatewayInRepository(["serve", "--config", file.path], environment: ["HAAPI_GATEWAY_LOGGING_FORMAT": "json"])
        for result in [check, serve, json] {
            #expect(result.status == 78, "\(result.standardError)")
            #expect(!(result.standardOutput + result.standardError).contains("url-password-7c1e"), "\(result.standardError)")
            #expect(result.standardError.contains("https://gateway:<redacted>@idsvr.example.com/oauth/v2/oauth-anonymous"), "\(result.standardError)")
        }
    }

    @Test func theReferenceIsPrintedWithoutAFile() async throws {
        let result = try await runGatewayInRepository(["check-config", "--reference"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("# Configuration reference"))
        #expect(result.standardOutput.contains("| `server.port`<br>`HAAPI_GATEWAY_SERVER_PORT` |"))
        let neither = try await runGatewayInRepository(["check-config"])
        #expect(neither.status != 0 && neither.standardError.contains("name the configuration file to check"), "\(neither.standardError)")
    }

    @Test func withoutAFileItChecksTheOneHAAPIGatewayConfigNamesAsServeDoes() async throws {
        let directory = try Repository.temporaryDirectory()
        let good = directory.appendingPathComponent("gateway.yaml")
        try "server:\n  port: 9000\n".write(to: good, atomically: true, encoding: .utf8)
        let bad = directory.appendingPathComponent("bad.yaml")
        try "server:\n  prot: 9000\n".write(to: bad, atomically: true, encoding: .utf8)

        let checked = try await runGatewayInRepository(["check-config"], environment: ["HAAPI_GATEWAY_CONFIG": good.path])
        #expect(checked.status == 0, "\(checked.standardError)")
        #expect(checked.standardOutput.hasPrefix("\(good.path): configuration OK"), "\(checked.standardOutput)")
        #expect(checked.standardOutput.contains("    server.port: 9000"))
        let refused = try await runGatewayInRepository(["check-config"], environment: ["HAAPI_GATEWAY_CONFIG": bad.path])
        #expect(refused.status == 78)
        #expect(
            refused.standardError.contains("\(bad.path): invalid configuration: \(bad.path):2: unknown key 'server.prot'"),
            "\(refused.standardError)"
        )
        // A file named wins over the variable, as with serve's --config.
        let named = try await runGatewayInRepository(["check-config", good.path], environment: ["HAAPI_GATEWAY_CONFIG": bad.path])
        #expect(named.status == 0, "\(named.standardError)")
        let help = try await runGatewayInRepository(["check-config", "--help"])
        #expect(help.standardOutput.contains("$HAAPI_GATEWAY_CONFIG"), "\(help.standardOutput)")
    }

    @Test func theDemoDeploymentIsValid() async throws {
        let result = try await runGatewayInRepository(["check-config", "config/demo.yaml"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("listens on 0.0.0.0:8080"))
        #expect(result.standardOutput.contains("DPoP nonces on"))
    }

    @Test func aBadFileListsEveryProblemWithLineNumbersAndExits78() async throws {
        let file = try Repository.temporaryDirectory().appendingPathComponent("bad.yaml")
        try """
        server:
          prot: 8080
          port: eighty
        upstream:
          clientSecret: canary-inline-secret-77
        sesions:
          idleTimeoutSeconds: 5
        callbacks:
          sinks: [ftp://nowhere]

        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try await runGatewayInRepository(["check-config", file.path])
        #expect(result.status == 78)
        #expect(result.standardOutput.isEmpty)
        let error = result.standardError
        #expect(error.contains("\(file.path):2: unknown key 'server.prot' (did you mean 'port'?)"))
        #expect(error.contains("server.port (\(file.path):3): must be a whole number, got 'eighty'"))
        #expect(error.contains("unknown section 'sesions' (did you mean 'sessions'?)"))
        #expect(error.contains("upstream.clientSecret (\(file.path):5): is set, but upstream.baseURL is not"))
        #expect(error.contains("ftp://nowhere"))
        #expect(!error.contains("canary-inline-secret-77"))
    }

    @Test func serveRefusesToStartWithABadConfiguration() async throws {
        let result = try await runGatewayInRepository(
            ["serve", "--port", "0", "--callback", "exec:relative/program"],
            environment: ["HAAPI_GATEWAY_SESSIONS_MAXIMUM_SESSIONS": "0"]
        )
        #expect(result.status == 78)
        #expect(result.standardError.contains("exec:PATH needs an absolute path"))
        #expect(result.standardError.contains("sessions.maximumSessions (environment variable HAAPI_GATEWAY_SESSIONS_MAXIMUM_SESSIONS)"))
        #expect(!result.standardOutput.contains("open http"), "nothing may listen")
    }

    @Test func renderPrintsThePageOfASampleInTheAskedLanguage() async throws {
        let sample = Repository.root.appendingPathComponent("Tests/HAAPITests/Fixtures/samples/username-password-form.json").path
        let english = try await runGatewayInRepository(["render", sample])
        #expect(english.status == 0, "\(english.standardError)")
        #expect(english.standardOutput.hasPrefix("<!DOCTYPE html>"))
        #expect(english.standardOutput.contains(#"type="password""#))
        #expect(english.standardOutput.contains("Cancel sign-in"))
        let swedish = try await runGatewayInRepository(["render", sample, "--locale", "sv"])
        #expect(swedish.standardOutput.contains(#"<html lang="sv">"#))
        #expect(swedish.standardOutput.contains("Avbryt inloggningen"))
        let missing = try await runGatewayInRepository(["render", "/nonexistent.json"])
        #expect(missing.status != 0)
    }

    @Test func renderWritesAPreviewDirectoryWithTheConfiguredTheme() async throws {
        let sample = Repository.root.appendingPathComponent("Tests/HAAPITests/Fixtures/samples/username-password-form.json").path
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let preview = directory.appendingPathComponent("preview")
        let result = try await runGatewayInRepository(
            ["render", sample, "--output", preview.path],
            environment: ["HAAPI_GATEWAY_THEME_PRODUCT_NAME": "Acme", "HAAPI_GATEWAY_THEME_ACCENT_COLOR": "#0b5cad"]
        )
        #expect(result.status == 0, "\(result.standardError)")
        let page = try String(contentsOf: preview.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("<title>Login – Acme</title>") || page.contains(" – Acme</title>"))
        let theme = try String(contentsOf: preview.appendingPathComponent("assets/theme.css"), encoding: .utf8)
        #expect(theme.contains("--accent: #0b5cad;"))
        #expect(FileManager.default.fileExists(atPath: preview.appendingPathComponent("assets/gateway.css").path))
        let refused = try await runGatewayInRepository(["render", sample], environment: ["HAAPI_GATEWAY_THEME_ACCENT_COLOR": "blue"])
        #expect(refused.status == 78 && refused.standardError.contains("theme.accentColor"))
    }

    @Test func helpListsTheSubcommandsAndLayering() async throws {
        let help = try await runGatewayInRepository(["--help"])
        for command in ["serve", "check-config", "render", "demo-server"] { #expect(help.standardOutput.contains(command)) }
        let serveHelp = try await runGatewayInRepository(["serve", "--help"])
        #expect(serveHelp.standardOutput.contains("--config"))
        #expect(serveHelp.standardOutput.contains("HAAPI_GATEWAY_"))
    }

    private func runGatewayInRepository(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await runGateway(arguments, environment: environment, directory: Repository.root)
    }
}
