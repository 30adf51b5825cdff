extension JWSAlgorithm {
    /// The names in `advertised` (a discovery document's `id_token_signing_alg_values_supported`, OpenID Connect
    /// Discovery 1.0 §3) that the ID token validator cannot validate, in their order: a startup warning can name them
    /// before a sign-in ends with `invalid_id_token`.
    ///
    /// Names are compared exactly (JWS `alg` values are case-sensitive, RFC 7515 §4.1.1). `none` and the HMAC
    /// algorithms (`HS256`, …) are always named: the validator refuses them on purpose. `EdDSA` is not named, although
    /// only Ed25519 keys are validated: the algorithm does not say the curve (RFC 8037 §3.1), so an upstream that signs
    /// with Ed448 is found out only from its keys, by the message of the first refused token.
    ///
    /// ```swift
    /// JWSAlgorithm.unvalidatable(["RS256", "EdDSA", "HS256", "none", "ES256K"])  // ["HS256", "none", "ES256K"]
    /// ```
    /// - Parameter advertised: The algorithm names the upstream says it may sign ID tokens with.
    /// - Returns: Those of them that are not a ``JWSAlgorithm``.
    public static func unvalidatable(_ advertised: [String]) -> [String] {
        advertised.filter { JWSAlgorithm(rawValue: $0) == nil }
    }
}
