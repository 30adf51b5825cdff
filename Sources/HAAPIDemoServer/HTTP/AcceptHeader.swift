import Foundation

/// Reads an `Accept` header value.
enum AcceptHeader {
    /// Whether the header names `mediaType` exactly (parameters ignored, `q=0` refused): how HAAPI requests are told
    /// apart from the HTML login on the same URLs [HAAPI].
    static func accepts(_ values: [String], mediaType: String) -> Bool {
        ranges(values).contains { $0.range == mediaType && $0.quality > 0 }
    }

    /// Whether `mediaType` falls under one of the header's media ranges (`type/subtype`, `type/*`, `*/*`) with a
    /// quality above 0, or the header is absent (RFC 9110 §12.5.1).
    static func allows(_ values: [String], mediaType: String) -> Bool {
        let items = ranges(values)
        guard !items.isEmpty else { return true }
        let type = mediaType.split(separator: "/").first.map(String.init) ?? mediaType
        return items.contains { item in
            item.quality > 0 && (item.range == mediaType || item.range == type + "/*" || item.range == "*/*")
        }
    }

    private static func ranges(_ values: [String]) -> [(range: String, quality: Double)] {
        values.flatMap { $0.split(separator: ",") }.compactMap { item in
            let parameters = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let range = parameters.first, !range.isEmpty else { return nil }
            let quality = parameters.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (range, quality)
        }
    }
}
