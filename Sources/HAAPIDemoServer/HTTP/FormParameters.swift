import Foundation

/// Decoded `application/x-www-form-urlencoded` parameters (a body or a query string).
///
/// Parameters that occur more than once are remembered, so OAuth endpoints can refuse them
/// (RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once").
struct FormParameters: Sendable {
    private(set) var values: [String: String] = [:]
    private(set) var repeatedNames: Set<String> = []
    /// False when some pair was not valid percent-encoding.
    private(set) var isWellFormed = true

    /// The members of a JSON object as it was posted (empty for URL-encoded bodies and queries).
    private(set) var jsonMembers: [String: JSONValue] = [:]

    init() {}

    /// The parameters of a JSON form: string members also as values, every member as JSON.
    init(jsonObject: [String: JSONValue]) {
        jsonMembers = jsonObject
        for (name, value) in jsonObject {
            if let text = value.stringValue { values[name] = text }
        }
    }

    init(encoded: String) {
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else {
                isWellFormed = false
                continue
            }
            if values[name] != nil { repeatedNames.insert(name) }
            values[name] = value
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    subscript(_ name: String) -> String? { values[name] }

    /// A non-empty value, or nil.
    func nonEmpty(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// Percent-encodes a query component (RFC 3986 unreserved characters kept).
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// Builds `a=b&c=d` from ordered pairs.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
