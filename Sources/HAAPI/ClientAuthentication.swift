/// How the client authenticates at the token and revocation endpoints.
///
/// ``description``, ``debugDescription`` and `dump` never show secrets or keys.
public enum ClientAuthentication: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// No client authentication (a public client): only `client_id` is sent.
    case none
    /// `client_secret_basic`: HTTP Basic with the form-encoded client id and secret.
    case secretBasic(String)
    /// `client_secret_post`: `client_id` and `client_secret` in the form body.
    case secretPost(String)
    /// `client_secret_jwt` (RFC 7523, OpenID Connect Core §9): an HS256 client assertion keyed by the client secret
    /// (at least 32 bytes).
    case secretJWT(String)
    /// `private_key_jwt` (RFC 7523): a client assertion signed with a PEM private key: P-256 for ES256, RSA for RS256 and
    /// PS256.
    case privateKeyJWT(privateKeyPEM: String, keyID: String? = nil, algorithm: ClientAssertionAlgorithm = .es256)
    /// Mutual TLS (RFC 8705): the client certificate chain and its private key, both PEM.
    case mutualTLS(certificatePEM: String, privateKeyPEM: String)

    /// The method name with secrets redacted.
    public var description: String {
        switch self {
        case .none: "none"
        case .secretBasic: "client_secret_basic(<redacted>)"
        case .secretPost: "client_secret_post(<redacted>)"
        case .secretJWT: "client_secret_jwt(HS256, <redacted>)"
        case .privateKeyJWT(_, let keyID, let algorithm): "private_key_jwt(\(algorithm.rawValue), kid: \(keyID ?? "none"), key <redacted>)"
        case .mutualTLS: "tls_client_auth(certificate, key <redacted>)"
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// No members, so that `dump` shows ``description`` alone and no secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
