import Foundation

extension HAAPIFlow {
    /// Validates the ID token of tokens this flow received (OpenID Connect Core 1.0 §3.1.3.7) with the client's
    /// ``IDTokenValidator`` and the `nonce` this flow sent in its authorize request.
    /// - Parameters:
    ///   - tokens: The tokens this flow's code exchange returned.
    ///   - now: The time to check `exp` against.
    /// - Returns: The validated token, or nil when the tokens carry no ID token.
    /// - Throws: ``IDTokenValidationError``; ``IDTokenValidationError/Reason/keySetUnavailable`` when the upstream's
    ///   discovery names no issuer or `jwks_uri` (an ID token that cannot be checked is not trusted).
    public func validateIDToken(of tokens: OAuthTokens, now: Date = Date()) async throws(IDTokenValidationError) -> ValidatedIDToken? {
        guard let idToken = tokens.idToken else { return nil }
        guard let validator = context.idTokenValidator else {
            throw IDTokenValidationError(
                .keySetUnavailable,
                "the upstream's discovery names no issuer or no jwks_uri, so the ID token cannot be validated"
            )
        }
        return try await validator.validate(idToken, nonce: oidcNonce, now: now)
    }
}
