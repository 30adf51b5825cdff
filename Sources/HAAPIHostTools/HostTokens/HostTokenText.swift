/// What a token may hold before a tool on this host hands it on: printable ASCII without a space (RFC 6750's
/// `b64token` and a JWT's compact form are within it). A token is sent as it is in a header field (`proxy`), a line of
/// a tool's protocol (the credential helpers) or a line `token` prints for a script, where a control character or a
/// space would end the value early, start a line of its own, or make the HTTP client refuse the field and describe it,
/// token and all. The token endpoint's answer is checked only to be non-empty, so an upstream can issue such a token;
/// it is refused, and the refusal never holds it.
public enum HostTokenText {
    /// Whether `token` is non-empty and holds printable ASCII other than a space only.
    public static func isUsable(_ token: String) -> Bool {
        !token.isEmpty && token.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// `token` when it is usable, else why not: one line naming what it is and where it is, never the token (exit
    /// status 78: the token file holds what no tool can use, and a refresh or another sign-in at the same upstream may
    /// well bring the same).
    /// - Parameters:
    ///   - token: The token.
    ///   - what: What it is (`access token`, `ID token`).
    ///   - path: The token file it is in.
    public static func checked(_ token: String, what: String, path: String) -> Result<String, HostTokenProblem> {
        guard isUsable(token) else {
            return .failure(HostTokenProblem("the \(what) in \(path) is empty or holds characters a token cannot have", exitStatus: 78))
        }
        return .success(token)
    }
}
