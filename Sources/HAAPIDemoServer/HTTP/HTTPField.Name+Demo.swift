import HTTPTypes

extension HTTPField.Name {
    /// `DPoP` (RFC 9449 §4.1).
    static let dpop = HTTPField.Name("DPoP")!
    /// `DPoP-Nonce` (RFC 9449 §8).
    static let dpopNonce = HTTPField.Name("DPoP-Nonce")!
    /// `Session-Id`, the request header that names the client's HAAPI flow ([DRIVER], [SRVCLIENT]).
    static let sessionID = HTTPField.Name("Session-Id")!
    /// `Set-Session-Id`, the response header that hands the flow's session id to the client. Curity's driver
    /// documentation [DRIVER] and its server-side client (curityio/chatgpt-example-app,
    /// mcp-server/src/haapi/dpopOAuthClient.ts [SRVCLIENT]) read it from responses; no response carries `Session-Id`.
    static let setSessionID = HTTPField.Name("Set-Session-Id")!
    /// `Pragma` (RFC 6749 §5.1 asks for `no-cache` on token responses).
    static let pragma = HTTPField.Name("Pragma")!
}
