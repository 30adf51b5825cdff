import Foundation
import HAAPI

/// A JSON object posted by the page's script in a form field (a WebAuthn credential for a context field of a JSON
/// form): at most `maximumBytes` of UTF-8, at most `maximumDepth` levels, and an object at the top.
enum PostedJSONObject {
    /// Larger than any credential of an ES256 or RS256 passkey with its attestation, far below the body limit.
    static let maximumBytes = 16 * 1024
    static let maximumDepth = 8

    /// The object, or nil when the text is too long, not JSON, too deep or not an object.
    static func parse(_ text: String) -> JSONValue? {
        guard !text.isEmpty, text.utf8.count <= maximumBytes, let value = try? JSONValue.parse(Data(text.utf8)),
            case .object = value, depth(of: value) <= maximumDepth
        else { return nil }
        return value
    }

    private static func depth(of value: JSONValue) -> Int {
        switch value {
        case .object(let members): return 1 + (members.values.map(depth).max() ?? 0)
        case .array(let elements): return 1 + (elements.map(depth).max() ?? 0)
        default: return 0
        }
    }
}
