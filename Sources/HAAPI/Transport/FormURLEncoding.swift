import Foundation

/// `application/x-www-form-urlencoded` encoding (WHATWG URL standard).
enum FormURLEncoding {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._*")
        return set
    }()

    /// Encodes one component (space as `+`).
    /// - Parameter text: The raw text.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if unreserved.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar == " " {
                result += "+"
            } else {
                for byte in String(scalar).utf8 { result += String(format: "%%%02X", byte) }
            }
        }
        return result
    }

    /// Encodes pairs in order.
    /// - Parameter pairs: Name/value pairs.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// Decodes a urlencoded string into pairs (for tests and servers).
    /// - Parameter text: The encoded text.
    static func decode(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ value: Substring) -> String {
                String(value).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(value)
            }
            return (unescape(pieces[0]), pieces.count > 1 ? unescape(pieces[1]) : "")
        }
    }
}
