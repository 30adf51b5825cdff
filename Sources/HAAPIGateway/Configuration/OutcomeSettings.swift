/// What the outcome of a successful sign-in carries beyond the six token fields (the gateway's counterpart of Curity's
/// `OAuthDataMapper`): claims of the validated ID token and of the userinfo endpoint, by name, in `"claims"`.
///
/// Every ID token is validated whatever these say (OpenID Connect Core 1.0 §3.1.3.7); `subject` (its `sub`) is always
/// in the outcome when there is one. Userinfo (Core §5.3) is fetched once per sign-in, and only when
/// ``userinfoClaims`` is not empty.
public struct OutcomeSettings: Sendable, Equatable {
    /// Claims copied from the validated ID token into `"claims"` (a claim the token lacks is left out).
    public var idTokenClaims: [String]
    /// Claims copied from the userinfo answer into `"claims"`; a name in both lists is refused at startup.
    public var userinfoClaims: [String]

    /// Creates outcome settings.
    /// - Parameters:
    ///   - idTokenClaims: Claim names taken from the ID token (default none).
    ///   - userinfoClaims: Claim names taken from userinfo (default none: userinfo is not fetched).
    public init(idTokenClaims: [String] = [], userinfoClaims: [String] = []) {
        self.idTokenClaims = idTokenClaims
        self.userinfoClaims = userinfoClaims
    }

    /// Whether the outcome carries a `"claims"` object.
    public var mapsClaims: Bool { !idTokenClaims.isEmpty || !userinfoClaims.isEmpty }
}
