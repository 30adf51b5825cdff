/// A `Content-Type` value's media type: lower-cased, its parameters (`; charset=…`) cut off (RFC 9110 §8.3.1).
public enum MediaType {
    /// The media type of `contentType`; empty for nil.
    public static func of(_ contentType: String?) -> String {
        guard let contentType else { return "" }
        let base = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
        return base.trimmingWhitespace.lowercased()
    }

    /// Whether `contentType` is JSON: `application/json` or a `+json` type (`application/problem+json`, …).
    public static func isJSON(_ contentType: String?) -> Bool {
        let type = of(contentType)
        return type == "application/json" || type.hasSuffix("+json")
    }
}
