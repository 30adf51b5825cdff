import Foundation

/// One configuration key: its dotted path in the YAML file, the environment variable and the shape of its value.
///
/// ``ConfigurationKey/all`` is the single list of keys: the file reader rejects keys not in it, the environment reader
/// maps `HAAPI_GATEWAY_…` variables through it, and `check-config` prints the effective values in its order.
public struct ConfigurationKey: Sendable, Hashable {
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

    init(_ path: String, _ kind: Kind, secret: Bool = false) {
        self.path = path
        self.kind = kind
        self.isSecret = secret
    }

    /// The section (`server` for `server.port`).
    public var section: String { String(path.prefix { $0 != "." }) }

    /// The key within its section (`port` for `server.port`).
    public var name: String { String(path.drop { $0 != "." }.dropFirst()) }

    /// The environment variable: `HAAPI_GATEWAY_` and the path in upper snake case (`server.publicURL` →
    /// `HAAPI_GATEWAY_SERVER_PUBLIC_URL`).
    public var environmentName: String {
        "HAAPI_GATEWAY_" + path.split(separator: ".").map { Self.upperSnakeCase(String($0)) }.joined(separator: "_")
    }

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
}
