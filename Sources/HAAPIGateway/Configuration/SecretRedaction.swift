/// The one way the gateway shows that a secret was left out of what it prints: ``marker`` in its place, and for a
/// password in a URL's user info, the URL with its password replaced (`https://user:<redacted>@host/…`,
/// `postgres://gateway:<redacted>@db/haapi`): the user name and the host stay, so that a reader still knows which URL
/// it is. Problem lines, summaries, errors, the doctor's report and descriptions use it.
public enum SecretRedaction {
    /// What stands for a secret left out.
    public static let marker = "<redacted>"

    /// `text` with the password of every URL in it (`scheme://user:password@host`) replaced by ``marker``; the rest of
    /// the text as it is.
    public static func redactingURLPasswords(in text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var redacted = ""
        var rest = text[...]
        while let separator = rest.range(of: "://") {
            redacted += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            // The user info ends at the last `@` before the path, or before anything that ends a URL written in a
            // sentence (a space, a quote, a bracket). A `?` or `#` does not end it: a password with one unencoded is
            // still a password (rather too much redacted than a password shown).
            let authorityEnd = rest.firstIndex { "/\"'<>`()[]{} \t\r\n".contains($0) } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                redacted += authority[...colon]
                redacted += marker
                rest = rest[at...]
            }
        }
        return redacted + rest
    }
}
