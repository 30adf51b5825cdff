import Foundation

/// Raw configuration values by key path, built from the sources in order of precedence: file, then environment, then
/// flags (a later layer replaces a key of an earlier one). Problems found while reading (unknown keys, wrong shapes)
/// are collected, not thrown, so every problem is reported at once. Printed (`description`, `debugDescription`,
/// `dump`), it names the keys set and where, never a value: some are secrets.
public struct ConfigurationLayers: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The merged values by key path.
    public private(set) var values: [String: ConfigurationValue] = [:]
    /// Problems found while reading the sources.
    public private(set) var problems: [String] = []

    /// An empty set of layers (only defaults apply).
    public init() {}

    /// Adds a layer over the current values.
    /// - Parameters:
    ///   - layer: Values by key path.
    ///   - problems: Problems found while reading that layer.
    public mutating func add(_ layer: [String: ConfigurationValue], problems: [String] = []) {
        values.merge(layer) { _, new in new }
        self.problems += problems
    }

    /// Adds the `HAAPI_GATEWAY_…` variables of `environment`; any other `HAAPI_GATEWAY_` name is a problem (a typo
    /// must not be ignored silently). `HAAPI_GATEWAY_CONFIG` names the file and is not a key.
    public mutating func addEnvironment(_ environment: [String: String]) {
        var layer: [String: ConfigurationValue] = [:]
        var problems: [String] = []
        for (name, text) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("HAAPI_GATEWAY_") {
            guard name != Self.configurationFileVariable else { continue }
            guard let key = ConfigurationKey.byEnvironmentName[name] else {
                problems.append("environment variable \(name) is not a configuration key")
                continue
            }
            // A list arrives as text; the reader splits it at commas (`ConfigurationReader.list`).
            layer[key.path] = ConfigurationValue(.scalar(text), origin: .environment(name))
        }
        add(layer, problems: problems)
    }

    /// Adds values given as flags, each with the key it sets (`nil` values are flags not given).
    public mutating func addFlags(_ flags: [(key: ConfigurationKey, flag: String, value: ConfigurationValue.Content?)]) {
        var layer: [String: ConfigurationValue] = [:]
        for entry in flags {
            guard let value = entry.value else { continue }
            layer[entry.key.path] = ConfigurationValue(value, origin: .flag(entry.flag))
        }
        add(layer)
    }

    /// The environment variable that names the configuration file.
    public static let configurationFileVariable = "HAAPI_GATEWAY_CONFIG"

    /// Each key set, with where it was set (`upstream.clientSecret (flag --client-secret)`), in order.
    private var keysSet: [String] { values.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.origin))" } }

    /// The keys set and where, and the number of problems; no value.
    public var description: String { "ConfigurationLayers(keys: \(keysSet.joined(separator: ", ")); problems: \(problems.count))" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The keys set and where, and the problems; no value, so that `dump` shows no secret.
    public var customMirror: Mirror { Mirror(self, children: ["keys": keysSet, "problems": problems], displayStyle: .struct) }
}
