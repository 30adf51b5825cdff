import HAAPIGateway

/// The one line `haapi-gateway proxy` logs per request: method, path, status, how long until the answer began, and what
/// the proxy did besides forwarding (a nonce demanded and answered, or why it answered itself).
///
/// No token, proof or header value is in it, and no query: a query often carries a secret (an API key, a code), so it
/// is shown as `?…`. The path is the one sent to the target (under `--to`'s base path, as the HTTP client writes it),
/// or the client's when the proxy answered before making one; method and path have their control characters escaped
/// and their length bounded (``LogText/untrusted(_:)``), so that a request cannot forge a line; the note's control
/// characters are escaped.
public enum ProxyLogLine {
    /// The line.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - requestTarget: The request-target sent to the target, or the client's when nothing was made to send.
    ///   - status: The status the client got.
    ///   - duration: From the request's arrival to the answer's head.
    ///   - note: What else happened, if anything (a refusal's line, a nonce retry).
    public static func line(method: String, requestTarget: String, status: Int, duration: Duration, note: String? = nil) -> String {
        let path = requestTarget.prefix { $0 != "?" && $0 != "#" }
        let query = path.count < requestTarget.count ? "?…" : ""
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        var line = "\(LogText.untrusted(method)) \(LogText.untrusted(path))\(query) \(status) \(milliseconds) ms"
        if let note { line += " (\(LogText.escapingControlCharacters(note)))" }
        return line
    }
}
