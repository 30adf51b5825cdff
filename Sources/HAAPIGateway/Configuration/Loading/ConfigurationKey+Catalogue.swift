import Foundation
import HAAPI

extension ConfigurationKey {
    /// Every setting, in the order of `config/haapi-gateway.yaml` (which explains each one at length, with examples).
    public static let all: [ConfigurationKey] =
        serverKeys + upstreamKeys + demoKeys + sessionsKeys + templatesKeys + outcomesKeys + pagesKeys + metricsKeys + devicesKeys
        + startLinksKeys + loggingKeys + tracingKeys

    /// The keys by path, for the file's keys (code names a key by its constant, never looks one up by path).
    static let byPath: [String: ConfigurationKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.path, $0) })

    /// The keys by environment variable name.
    static let byEnvironmentName: [String: ConfigurationKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.environmentName, $0) })

    /// The groups of keys within a section (`upstream.endpoints` for `upstream.endpoints.token`): a mapping in the file.
    static let groups: Set<String> = Set(
        all.compactMap { key in
            let parts = key.path.split(separator: ".")
            return parts.count > 2 ? parts.dropLast().joined(separator: ".") : nil
        }
    )

    /// The sections, in order.
    static let sections: [String] = all.reduce(into: [String]()) { sections, key in
        if sections.last != key.section { sections.append(key.section) }
    }

    // MARK: - Reading values back

    /// A list as YAML writes it inline.
    static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// A value of the real upstream's client; nil with the demo upstream.
    static func haapi(_ configuration: GatewayConfiguration, _ read: (HAAPIClientConfiguration) -> String?) -> String? {
        if case .haapi(let client) = configuration.upstream { read(client) } else { nil }
    }

    /// A value of the demo upstream; nil with a real one.
    static func demo(_ configuration: GatewayConfiguration, _ read: (DemoUpstreamSettings) -> String?) -> String? {
        if case .demo(let demo) = configuration.upstream { read(demo) } else { nil }
    }

    /// A value of the PostgreSQL store; nil with the memory store.
    static func postgres(_ configuration: GatewayConfiguration, _ read: (PostgresStoreSettings) -> String?) -> String? {
        if case .postgres(let store) = configuration.sessions.store { read(store) } else { nil }
    }
}
