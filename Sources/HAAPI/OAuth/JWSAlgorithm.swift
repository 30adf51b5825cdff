/// A JWS signature algorithm an ID token may be signed with (RFC 7518 §3.1): the RSA (PKCS#1 v1.5 and PSS) and ECDSA
/// families with SHA-256, -384 and -512, and EdDSA (RFC 8037 §3.1) with Ed25519 keys.
///
/// `EdDSA` names no curve: the key does (its JWK `crv`). Ed25519 keys are validated; Ed448 keys are not (swift-crypto
/// has no Ed448), so a token signed with one is refused with a message naming Ed448, and a discovery document cannot
/// say ahead of time which curve its `EdDSA` means.
///
/// `none` and the HMAC algorithms (`HS256`, …) are not cases: an unsigned token proves nothing, and an HMAC would be
/// keyed by the client secret, which the gateway's validator does not use for ID tokens (OpenID Connect Core 1.0
/// §3.1.3.7 items 7–8). A header naming them is refused with ``IDTokenValidationError/Reason/unsupportedAlgorithm``.
public enum JWSAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256: the default of OpenID Connect (Core §3.1.3.7 item 7) and of Curity.
    case rs256 = "RS256"
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = "RS384"
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = "RS512"
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt (RFC 7518 §3.5).
    case ps256 = "PS256"
    /// RSASSA-PSS with SHA-384 and a 48-byte salt.
    case ps384 = "PS384"
    /// RSASSA-PSS with SHA-512 and a 64-byte salt.
    case ps512 = "PS512"
    /// ECDSA with P-256 and SHA-256 (the embedded demo server's).
    case es256 = "ES256"
    /// ECDSA with P-384 and SHA-384.
    case es384 = "ES384"
    /// ECDSA with P-521 and SHA-512.
    case es512 = "ES512"
    /// EdDSA (RFC 8037 §3.1), validated with Ed25519 keys (`kty` `OKP`, `crv` `Ed25519`): one of the key types a Curity
    /// token profile can sign with. Ed448 keys are skipped.
    case edDSA = "EdDSA"

    /// The JWK key type (`kty`) that verifies this algorithm: `RSA`, `EC` or `OKP`.
    public var keyType: String {
        switch self {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: return "RSA"
        case .es256, .es384, .es512: return "EC"
        case .edDSA: return "OKP"
        }
    }
}
