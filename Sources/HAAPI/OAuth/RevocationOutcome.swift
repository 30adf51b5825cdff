/// The result of a revocation request (RFC 7009).
public enum RevocationOutcome: Sendable, Hashable {
    /// The server answered 200 (also for unknown tokens).
    case revoked
    /// The server refused with an OAuth error.
    case oauthError(OAuthErrorResponse)
}
