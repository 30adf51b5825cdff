/// The key the demo server signs its ID tokens with, as a Curity token profile's signing key would be an EC or an EdDSA
/// one ([EDDSA], notes 5). A fresh key is made at every start and published in the JWKS.
public enum DemoIDTokenAlgorithm: String, Sendable, CaseIterable {
    /// ECDSA with P-256 and SHA-256 (RFC 7518 §3.4): JWS `alg` `ES256`, a JWK of `kty` `EC`. The default.
    case es256
    /// EdDSA with Ed25519 (RFC 8037 §3.1): JWS `alg` `EdDSA`, a JWK of `kty` `OKP` and `crv` `Ed25519`.
    case ed25519

    /// The JWS `alg` of the tokens (and of discovery's `id_token_signing_alg_values_supported`).
    public var jwsAlgorithm: String {
        switch self {
        case .es256: "ES256"
        case .ed25519: "EdDSA"
        }
    }
}
