/// Text made safe to write in a log line: one event is always one line, and a value from outside (a query parameter, a
/// path, a header, an upstream's error) can neither start a line of its own nor fill the log.
///
/// - Control characters are written as visible escapes: `\n`, `\r`, `\t`, and `\u{1B}` (uppercase hex, as Swift's
///   `debugDescription` writes them) for the other C0 characters, DEL and the C1 characters (NEL, `U+0085`, among
///   them), the Unicode line and paragraph separators, and the bidirectional controls that reorder what a terminal
///   shows (`U+202A`–`U+202E`, `U+2066`–`U+2069`).
/// - A backslash is left as it is: an escape written by the sender reads as the escape, never as a line break.
public enum LogText {
    /// The most Unicode scalars of an untrusted value written in a log line, its escapes counted; longer values end
    /// with ``truncationMarker``.
    public static let untrustedLengthLimit = 200

    /// Ends an untrusted value cut at ``untrustedLengthLimit``.
    public static let truncationMarker = "…"

    /// `text` with every control character written as a visible escape.
    public static func escapingControlCharacters(_ text: String) -> String {
        // Most log lines are printable ASCII: nothing to do.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if let escape = escape(scalar) { escaped += escape } else { escaped.unicodeScalars.append(scalar) }
        }
        return escaped
    }

    /// A value from outside as it may be logged: control characters escaped, and at most ``untrustedLengthLimit``
    /// scalars (escapes counted whole, never cut), then ``truncationMarker``.
    public static func untrusted(_ text: some StringProtocol) -> String {
        var bounded = ""
        var length = 0
        for scalar in text.unicodeScalars {
            let piece = escape(scalar) ?? String(scalar)
            let pieceLength = piece.unicodeScalars.count
            guard length + pieceLength <= untrustedLengthLimit else { return bounded + truncationMarker }
            bounded += piece
            length += pieceLength
        }
        return bounded
    }

    /// The visible escape of a control character; nil for any other scalar.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        case 0x09: "\\t"
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: nil
        }
    }
}
