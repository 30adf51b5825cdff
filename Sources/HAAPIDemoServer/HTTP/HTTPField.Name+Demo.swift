import HTTPTypes

extension HTTPField.Name {
    /// `DPoP` (RFC 9449 §4.1).
    static let dpop = HTTPField.Name("DPoP")!
    /// `DPoP-Nonce` (RFC 9449 §8).
    static let dpopNonce = HTTPField.Name("DPoP-Nonce")!
    /// `Session-Id`, the HAAPI flow session header.
    static let sessionID = HTTPField.Name("Session-Id")!
    /// `Pragma` (RFC 6749 §5.1 asks for `no-cache` on token responses).
    static let pragma = HTTPField.Name("Pragma")!
}
