/// Reads `Cookie` request headers (RFC 6265 §4.2.1, §5.4): `name=value` pairs separated by `;`. HTTP/2 and some
/// clients send several `Cookie` headers; all are read. Untrusted input: at most `maximumPairs` pairs are kept.
enum CookieHeader {
    static let maximumPairs = 64

    /// The pairs of every `Cookie` header, in order; pieces without `=` are skipped.
    static func pairs(_ values: [String]) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for value in values {
            for piece in value.split(separator: ";") where pairs.count < maximumPairs {
                let trimmed = piece.trimmingCharacters(in: .whitespaces)
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                var cookieValue = trimmed[trimmed.index(after: equals)...]
                // RFC 6265 §4.1.1: a cookie-value may be wrapped in double quotes.
                if cookieValue.count >= 2, cookieValue.hasPrefix("\""), cookieValue.hasSuffix("\"") {
                    cookieValue = cookieValue.dropFirst().dropLast()
                }
                pairs.append((String(trimmed[..<equals]).trimmingCharacters(in: .whitespaces), String(cookieValue)))
            }
        }
        return pairs
    }
}
