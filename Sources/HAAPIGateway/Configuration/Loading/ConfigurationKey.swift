import Crypto
import Foundation

/// One setting, declared once: its dotted path in the YAML file (and so its environment variable), the shape of its
/// value, whether it is a secret, the whole numbers it allows, what it means, when a changed value takes effect, and
/// how its value is read back from a configuration.
///
/// Each setting is a constant of its section's file (`ConfigurationKey+ServerKeys.swift`: ``serverPort``, …), the only
/// place its path is written: the loading code reads it by that constant (``ConfigurationReader`` takes no path, so a
/// setting that is not declared cannot be read), and the executable's flags, problem messages and the doctor name it by
/// ``path`` and ``environmentName`` ("Configuration keys are declared once" fails on a path written anywhere else in the
/// sources). ``ConfigurationKey/all`` is the single list of settings. From it: the file reader rejects keys not in it;
/// the environment reader maps `HAAPI_GATEWAY_…` variables through it; `check-config` lists the settings changed from
/// their defaults; a reload compares the running and the new value of every setting that waits for a restart and keeps
/// the running one; and `check-config --reference` writes `docs/configuration.md`, the reference a test keeps current.
public struct ConfigurationKey: Sendable, Hashable, CustomStringConvertible {
    /// The shape of a value.
    public enum Kind: String, Sendable {
        /// A string (also paths and URLs).
        case string
        /// A whole number.
        case integer
        /// `true` or `false`.
        case boolean
        /// A list of strings (a YAML sequence; comma-separated in an environment variable).
        case list
        /// A list of records, each a mapping of names to plain values (a YAML sequence of mappings; a JSON array of
        /// objects in an environment variable).
        case records
    }

    /// The dotted path, e.g. `server.port`.
    public let path: String
    /// The shape of the value.
    public let kind: Kind
    /// Whether the value is a secret (never printed, never logged).
    public let isSecret: Bool
    /// For a whole number, the values allowed (``ConfigurationReader/integer(_:default:)`` checks them).
    public let range: ClosedRange<Int>?
    /// What the setting means, in a sentence or two (the reference's text).
    public let summary: String
    /// When a changed value takes effect on a running gateway.
    public let reload: ConfigurationReload
    /// The default of a setting that applies only beside others the built-in configuration does not have (the real
    /// upstream's, the database's); the reader falls back on it (``ConfigurationReader/stringOrDefault(_:)``). Other
    /// settings take their default from the settings structs (``defaultValue``).
    let fallback: String?
    /// The value in effect in a configuration, as text; nil when it is not set. For a file of key material, a
    /// fingerprint of what was read; for a secret, the secret itself (``displayValue(in:)`` redacts it).
    let value: @Sendable (GatewayConfiguration) -> String?

    init(
        _ path: String,
        _ kind: Kind,
        secret: Bool = false,
        range: ClosedRange<Int>? = nil,
        default fallback: String? = nil,
        _ reload: ConfigurationReload,
        _ summary: String,
        value: @escaping @Sendable (GatewayConfiguration) -> String?
    ) {
        self.path = path
        self.kind = kind
        self.isSecret = secret
        self.range = range
        self.fallback = fallback
        self.reload = reload
        self.summary = summary
        self.value = value
    }

    public static func == (left: ConfigurationKey, right: ConfigurationKey) -> Bool { left.path == right.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }

    /// The path, so that a key interpolated into a message reads as the setting people write.
    public var description: String { path }

    /// The section (`server` for `server.port`).
    public var section: String { String(path.prefix { $0 != "." }) }

    /// The key within its section (`port` for `server.port`).
    public var name: String { String(path.drop { $0 != "." }.dropFirst()) }

    /// The environment variable: `HAAPI_GATEWAY_` and the path in upper snake case (`server.publicURL` →
    /// `HAAPI_GATEWAY_SERVER_PUBLIC_URL`).
    public var environmentName: String {
        "HAAPI_GATEWAY_" + path.split(separator: ".").map { Self.upperSnakeCase(String($0)) }.joined(separator: "_")
    }

    /// The value in effect in `configuration` as it may be shown: a secret as `<redacted>`, nil when not set.
    public func displayValue(in configuration: GatewayConfiguration) -> String? {
        guard let value = value(configuration) else { return nil }
        return isSecret ? SecretRedaction.marker : value
    }

    /// The built-in default as it may be shown; nil when the setting has none.
    public var defaultValue: String? { displayValue(in: Self.builtIn) ?? fallback }

    /// The built-in configuration, made once for every key's ``defaultValue``.
    private static let builtIn = GatewayConfiguration()

    /// `publicURL` → `PUBLIC_URL`, `maxAgeSeconds` → `MAX_AGE_SECONDS`, `clientID` → `CLIENT_ID`, `requireDPoPNonce` →
    /// `REQUIRE_DPOP_NONCE`.
    static func upperSnakeCase(_ camel: String) -> String {
        var result = ""
        let characters = Array(camel.replacingOccurrences(of: "DPoP", with: "Dpop"))
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previousIsLower = characters[index - 1].isLowercase || characters[index - 1].isNumber
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previousIsLower || (characters[index - 1].isUppercase && nextIsLower) { result.append("_") }
            }
            result.append(contentsOf: character.uppercased())
        }
        return result
    }

    /// A short fingerprint of key material or a certificate read from a file: tells two apart, reveals nothing.
    static func fingerprint(_ text: String) -> String {
        "sha256:" + SHA256.hash(data: Data(text.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
    }
}
