import Foundation

/// The members of `clientDataJSON` (WebAuthn Level 2 §5.8.1) the demo checks.
struct CollectedClientData: Sendable {
    let type: String
    let challenge: String
    let origin: String
    let crossOrigin: Bool

    /// Parses the JSON; nil unless it is an object with string `type`, `challenge` and `origin`.
    init?(_ bytes: [UInt8]) {
        guard let object = JSONValue.object(from: Data(bytes)), let type = object["type"]?.stringValue,
            let challenge = object["challenge"]?.stringValue, let origin = object["origin"]?.stringValue
        else { return nil }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        if case .bool(let crossOrigin)? = object["crossOrigin"] { self.crossOrigin = crossOrigin } else { self.crossOrigin = false }
    }
}
