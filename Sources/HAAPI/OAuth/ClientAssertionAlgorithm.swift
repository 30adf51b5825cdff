/// The JWS algorithm of a `private_key_jwt` client assertion (RFC 7523, RFC 7518 §3). Curity accepts signed-JWT client
/// authentication with a symmetric or an asymmetric key, whichever the server's client is set up with ([CLIENTAUTH],
/// notes 1.2): a gateway must not assume ES256 only.
public enum ClientAssertionAlgorithm: String, Sendable, CaseIterable {
    /// ECDSA with P-256 and SHA-256.
    case es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RSA keys of 2048 bits or more).
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256 and a 32-byte salt (RSA keys of 2048 bits or more).
    case ps256 = "PS256"
}
