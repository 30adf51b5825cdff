import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// Each setting is declared once (``ConfigurationKey/all``), and what comes from the declarations holds: the reference
/// in `docs/configuration.md`, the ranges the reader checks, the values read back for the summary and the reload.
@Suite("Settings declared once")
struct ConfigurationDeclarationTests {
    /// A real upstream's required settings, so that the upstream's other settings may be set beside them.
    private static let realUpstream = [
        "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example.com/oauth/v2/oauth-anonymous",
        "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "gateway",
        "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": "a client secret",
    ]

    @Test("docs/configuration.md is what `check-config --reference` writes from the declarations")
    func referenceIsCurrent() throws {
        let file = Repository.root.appendingPathComponent("docs/configuration.md")
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(
            written == ConfigurationReference.markdown,
            "docs/configuration.md is stale: run `swift run haapi-gateway check-config --reference > docs/configuration.md`"
        )
    }

    @Test("every whole-number setting declares the values it allows, and every setting a summary")
    func declarationsAreComplete() {
        for key in ConfigurationKey.all {
            #expect((key.kind == .integer) == (key.range != nil), "\(key.path)")
            #expect(key.summary.hasSuffix("."), "\(key.path) has a summary of its own")
        }
        #expect(Set(ConfigurationKey.all.map(\.path)).count == ConfigurationKey.all.count)
    }

    @Test("a whole number outside its declared range is refused with the range named, for every such setting")
    func declaredRangesAreChecked() {
        for key in ConfigurationKey.all {
            guard let range = key.range else { continue }
            let environment = (key.section == "upstream" ? Self.realUpstream : [:]).merging([key.environmentName: "\(range.upperBound + 1)"]) { $1 }
            do {
                _ = try GatewayConfiguration.load(file: nil, environment: environment)
                Issue.record("\(key.path) accepted \(range.upperBound + 1)")
            } catch {
                #expect(
                    error.problems.contains { $0.contains(key.path) && $0.contains("between \(range.lowerBound) and \(range.upperBound)") },
                    "\(key.path): \(error.problems)"
                )
            }
        }
    }

    @Test("every whole number and switch set is read back by its declaration, and listed among the settings changed from their defaults")
    func valuesAreReadBack() throws {
        for key in ConfigurationKey.all where key.kind == .integer || key.kind == .boolean {
            let base = key.section == "upstream" ? Self.realUpstream : [:]
            let baseline = try GatewayConfiguration.load(file: nil, environment: base)
            // The other switch position, or a number next to the current one (or to the least allowed, when unset).
            let current = key.value(baseline)
            let other: String
            if key.kind == .boolean {
                other = current == "true" ? "false" : "true"
            } else {
                let range = try #require(key.range)
                let number = current.flatMap { Int($0) } ?? range.lowerBound
                other = "\(number + 1 <= range.upperBound ? number + 1 : number - 1)"
            }
            var environment = base
            environment[key.environmentName] = other
            // Some switches need a partner to be valid (devices need a client, the health routes another listener, the
            // database's commit mode the database, allowUnauthenticatedClient its method).
            switch key.path {
            case "devices.enabled": environment["HAAPI_GATEWAY_DEVICES_CLIENTS"] = #"[{"id":"host","name":"Host"}]"#
            case "server.healthEndpoints": environment["HAAPI_GATEWAY_METRICS_ENABLED"] = "true"
            case "sessions.synchronousCommit":
                let keys = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
                try Data(repeating: 7, count: 32).base64EncodedString().write(to: keys, atomically: true, encoding: .utf8)
                environment["HAAPI_GATEWAY_SESSIONS_STORE"] = "postgres"
                environment["HAAPI_GATEWAY_SESSIONS_POSTGRES_URL"] = "postgres://gateway@127.0.0.1:5432/gateway?sslmode=disable"
                environment["HAAPI_GATEWAY_SESSIONS_ENCRYPTION_KEYS_FILE"] = keys.path
            case "upstream.allowUnauthenticatedClient":
                environment["HAAPI_GATEWAY_UPSTREAM_CLIENT_AUTHENTICATION"] = "none"
                environment["HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET"] = nil
            default: break
            }
            let configuration = try GatewayConfiguration.load(file: nil, environment: environment)
            #expect(key.value(configuration) == other, "\(key.path) reads back what was set")
            let changed = configuration.settingsChangedFromDefaults.filter { !$0.hasPrefix("upstream.") || key.section == "upstream" }
            #expect(changed.contains("\(key.path): \(other)"), "\(key.path): \(changed)")
        }
    }

    @Test("the shipped configuration file changes no setting from its default")
    func shippedFileChangesNothing() throws {
        let file = Repository.config.appendingPathComponent("haapi-gateway.yaml")
        let configuration = try GatewayConfiguration.load(file: file.path, environment: [:])
        #expect(configuration.settingsChangedFromDefaults == [])
    }

    @Test("a secret is never shown: not in the reference, not in the settings changed from their defaults")
    func secretsAreRedacted() throws {
        var environment = Self.realUpstream
        environment["HAAPI_GATEWAY_CALLBACKS_SINKS"] = "https://hooks.example.com/in"
        environment["HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET"] = "a webhook secret of some length"
        let configuration = try GatewayConfiguration.load(file: nil, environment: environment)
        let changed = configuration.settingsChangedFromDefaults.joined(separator: "\n")
        #expect(changed.contains("upstream.clientSecret: <redacted>"))
        #expect(changed.contains("callbacks.webhookSecret: <redacted>"))
        #expect(!changed.contains("a client secret") && !changed.contains("a webhook secret"))
        #expect(!ConfigurationReference.markdown.contains("a client secret"))
    }

    @Test("a request keeps the settings it started with when a reload replaces them meanwhile")
    func requestSettingsAreTakenOnce() throws {
        var first = GatewayConfiguration()
        first.completion.confirmCancel = true
        let live = LiveSettings(configuration: first, templates: try TemplateLibrary(settings: first.templates))
        let request = RequestSettings()
        #expect(request.snapshot(from: live).configuration.completion.confirmCancel)
        var second = first
        second.completion.confirmCancel = false
        live.replace(configuration: second, templates: try TemplateLibrary(settings: second.templates))
        #expect(request.snapshot(from: live).configuration.completion.confirmCancel, "the request's own snapshot")
        #expect(!RequestSettings().snapshot(from: live).configuration.completion.confirmCancel, "the next request's")
    }
}
