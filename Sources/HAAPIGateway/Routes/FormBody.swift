import Foundation
import Hummingbird

/// An `application/x-www-form-urlencoded` body, read up to the configured limit (first value of a name wins).
public struct FormBody: Sendable {
    /// The decoded values by name.
    public let values: [String: String]

    static func read(_ request: Request, limit: Int) async throws -> FormBody {
        var request = request
        let buffer = try await request.collectBody(upTo: limit)
        return FormBody(parsing: String(buffer: buffer))
    }

    /// Decodes a urlencoded body (`+` as space, percent escapes); a malformed name drops its pair.
    public init(parsing text: String) {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            let value = parts.count > 1 ? Self.decode(parts[1]) ?? "" : ""
            if values[name] == nil { values[name] = value }
        }
        self.values = values
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
