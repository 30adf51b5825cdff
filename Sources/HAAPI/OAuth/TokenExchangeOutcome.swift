/// The result of a token request: tokens or an OAuth error response.
public enum TokenExchangeOutcome: Sendable, Hashable {
    /// Tokens were issued.
    case tokens(OAuthTokens)
    /// The server refused with an OAuth error.
    case oauthError(OAuthErrorResponse)

    /// The tokens, if issued.
    public var tokens: OAuthTokens? {
        if case .tokens(let tokens) = self { return tokens }
        return nil
    }

    /// The error, if refused.
    public var oauthError: OAuthErrorResponse? {
        if case .oauthError(let error) = self { return error }
        return nil
    }
}
