/// How the client authenticates at the token and revocation endpoints.
///
/// ``description`` never shows secrets or keys.
public enum ClientAuthentication: Sendable, CustomStringConvertible {
    /// No client authentication (a public client): only `client_id` is sent.
    case none
    /// `client_secret_basic`: HTTP Basic with the form-encoded client id and secret.
    case secretBasic(String)
    /// `client_secret_post`: `client_id` and `client_secret` in the form body.
    case secretPost(String)
    /// `private_key_jwt` (RFC 7523): an ES256 client assertion signed with a PEM P-256 private key.
    case privateKeyJWT(privateKeyPEM: String, keyID: String? = nil)
    /// Mutual TLS (RFC 8705): the client certificate chain and its private key, both PEM.
    case mutualTLS(certificatePEM: String, privateKeyPEM: String)

    /// The method name with secrets redacted.
    public var description: String {
        switch self {
        case .none: "none"
        case .secretBasic: "client_secret_basic(<redacted>)"
        case .secretPost: "client_secret_post(<redacted>)"
        case .privateKeyJWT(_, let keyID): "private_key_jwt(kid: \(keyID ?? "none"), key <redacted>)"
        case .mutualTLS: "tls_client_auth(certificate, key <redacted>)"
        }
    }
}
