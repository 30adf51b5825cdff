import Foundation

/// Reads an `Accept` header value.
enum AcceptHeader {
    /// Whether the header names `mediaType` exactly (parameters ignored, `q=0` refused).
    static func accepts(_ values: [String], mediaType: String) -> Bool {
        for value in values {
            for item in value.split(separator: ",") {
                let parameters = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let type = parameters.first, type == mediaType else { continue }
                let quality = parameters.dropFirst()
                    .first { $0.hasPrefix("q=") }
                    .flatMap { Double($0.dropFirst(2)) } ?? 1
                if quality > 0 { return true }
            }
        }
        return false
    }
}
