import Foundation

/// Exchanges authorization codes, refreshes and revokes tokens. OAuth errors are values; failures throw.
public struct TokenManager: Sendable {
    let endpointClient: TokenEndpointClient

    /// Exchanges an authorization code (RFC 6749 §4.1.3 with PKCE).
    /// - Parameters:
    ///   - code: The authorization code.
    ///   - codeVerifier: The PKCE verifier of the flow.
    ///   - dpopKey: When set, the tokens are bound to this key (and returned with it).
    public func exchange(code: String, codeVerifier: String, dpopKey: DPoPKey? = nil) async throws(HAAPIError) -> TokenExchangeOutcome {
        let form = Self.authorizationCodeForm(code: code, codeVerifier: codeVerifier, redirectURI: endpointClient.context.configuration.redirectURI)
        return try await endpointClient.requestTokens(form, dpopKey: dpopKey)
    }

    /// The authorization code grant's parameters (RFC 6749 §4.1.3, RFC 7636 §4.5); client authentication is added when sent.
    static func authorizationCodeForm(code: String, codeVerifier: String, redirectURI: String) -> [(String, String)] {
        [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", codeVerifier)]
    }

    /// Refreshes `tokens` with their refresh token, using their DPoP key when they are bound.
    /// - Parameter tokens: Tokens with a refresh token.
    /// - Throws: ``HAAPIError/Code/invalidParameters`` when there is no refresh token.
    public func refresh(_ tokens: OAuthTokens) async throws(HAAPIError) -> TokenExchangeOutcome {
        guard let refreshToken = tokens.refreshToken else {
            throw HAAPIError(.invalidParameters, "the tokens have no refresh token")
        }
        return try await refresh(refreshToken: refreshToken, dpopKey: tokens.dpopKey)
    }

    /// Refreshes with a refresh token.
    /// - Parameters:
    ///   - refreshToken: The refresh token.
    ///   - dpopKey: The key the refresh token is bound to, if any.
    public func refresh(refreshToken: String, dpopKey: DPoPKey? = nil) async throws(HAAPIError) -> TokenExchangeOutcome {
        try await endpointClient.requestTokens([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], dpopKey: dpopKey)
    }

    /// Revokes a token (RFC 7009).
    /// - Parameters:
    ///   - token: The token.
    ///   - typeHint: `access_token` or `refresh_token`, if known.
    /// - Throws: ``HAAPIError/Code/invalidConfiguration`` when there is no revocation endpoint.
    public func revoke(token: String, typeHint: String? = nil) async throws(HAAPIError) -> RevocationOutcome {
        guard let url = endpointClient.context.endpoints.revocation else {
            throw HAAPIError(.invalidConfiguration, "no revocation endpoint is configured or discovered")
        }
        var form = [("token", token)]
        if let typeHint { form.append(("token_type_hint", typeHint)) }
        let (status, json, response) = try await endpointClient.post(form, to: url, dpopKey: nil)
        if (200..<300).contains(status) { return .revoked }
        if let error = TokenEndpointClient.oauthError(status: status, json: json) { return .oauthError(error) }
        throw HAAPIError(
            .upstreamStatus,
            "the revocation endpoint answered with HTTP \(status)",
            status: status,
            contentType: response.header("Content-Type") ?? "none"
        )
    }

    /// Revokes the refresh token of `tokens` if any, else the access token.
    /// - Parameter tokens: The tokens.
    public func revoke(_ tokens: OAuthTokens) async throws(HAAPIError) -> RevocationOutcome {
        if let refreshToken = tokens.refreshToken { return try await revoke(token: refreshToken, typeHint: "refresh_token") }
        return try await revoke(token: tokens.accessToken, typeHint: "access_token")
    }
}
