import Foundation

/// Tokens from the token endpoint: the 6-field token model, plus the DPoP key when they are DPoP-bound.
///
/// All token members are secrets. ``description`` is redacted. Encoding writes the six fields only.
public struct OAuthTokens: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The access token.
    public let accessToken: String
    /// The lifetime in seconds, if sent: within `0...TokenLifetime.maximumSeconds`, however it was given
    /// (``TokenLifetime``), so that adding it to a date and converting the sum to whole seconds never traps.
    public let expiresIn: Int?
    /// The refresh token, if issued.
    public let refreshToken: String?
    /// `Bearer`, or `DPoP` when bound.
    public let tokenType: String
    /// The granted scope, if sent.
    public let scope: String?
    /// The ID token, if issued.
    public let idToken: String?
    /// The key the tokens are bound to (only when the exchange used DPoP): a receiver needs it to use them.
    public var dpopKey: DPoPKey? = nil

    enum CodingKeys: String, CodingKey {
        case accessToken, expiresIn, refreshToken, tokenType, scope, idToken
    }

    /// Creates tokens.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - expiresIn: The lifetime in seconds: a larger one than ``TokenLifetime/maximumSeconds`` is that maximum, a
    ///     negative one unknown.
    ///   - refreshToken: The refresh token.
    ///   - tokenType: The token type.
    ///   - scope: The scope.
    ///   - idToken: The ID token.
    ///   - dpopKey: The DPoP key, when bound.
    public init(
        accessToken: String,
        expiresIn: Int?,
        refreshToken: String?,
        tokenType: String,
        scope: String?,
        idToken: String?,
        dpopKey: DPoPKey? = nil
    ) {
        self.accessToken = accessToken
        self.expiresIn = TokenLifetime.bounded(expiresIn)
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.scope = scope
        self.idToken = idToken
        self.dpopKey = dpopKey
    }

    /// Decodes the six fields, the lifetime bounded as ``init(accessToken:expiresIn:refreshToken:tokenType:scope:idToken:dpopKey:)``
    /// bounds it: a token file or an outcome written before the bound may hold any integer.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            accessToken: try container.decode(String.self, forKey: .accessToken),
            expiresIn: try container.decodeIfPresent(Int.self, forKey: .expiresIn),
            refreshToken: try container.decodeIfPresent(String.self, forKey: .refreshToken),
            tokenType: try container.decode(String.self, forKey: .tokenType),
            scope: try container.decodeIfPresent(String.self, forKey: .scope),
            idToken: try container.decodeIfPresent(String.self, forKey: .idToken)
        )
    }

    /// Whether the tokens are DPoP-bound.
    public var isDPoPBound: Bool { Self.isDPoP(tokenType: tokenType) }

    /// Whether `tokenType` (a token response's `token_type`) is `DPoP`: compared without case (RFC 6749 §5.1) and
    /// without the white space around it that a careless server adds, so that `"DPoP "` is never taken as `Bearer` and
    /// its token handed to a tool that cannot prove it.
    public static func isDPoP(tokenType: String) -> Bool {
        tokenType.trimmingCharacters(in: .whitespacesAndNewlines).caseInsensitiveCompare("DPoP") == .orderedSame
    }

    /// Token types and lifetime; every token and the key are redacted.
    public var description: String {
        "OAuthTokens(tokenType: \(tokenType), expiresIn: \(expiresIn.map(String.init) ?? "nil"), scope: \(scope ?? "nil"), refreshToken: \(refreshToken == nil ? "none" : "<redacted>"), idToken: \(idToken == nil ? "none" : "<redacted>"), dpopKey: \(dpopKey == nil ? "none" : "<redacted>"))"
    }

    /// Equal when the six token fields are equal and both have the same DPoP public key (or none).
    public static func == (lhs: OAuthTokens, rhs: OAuthTokens) -> Bool {
        lhs.accessToken == rhs.accessToken && lhs.expiresIn == rhs.expiresIn && lhs.refreshToken == rhs.refreshToken
            && lhs.tokenType == rhs.tokenType && lhs.scope == rhs.scope && lhs.idToken == rhs.idToken
            && lhs.dpopKey?.publicJWK == rhs.dpopKey?.publicJWK
    }

    /// Hashes the access token.
    public func hash(into hasher: inout Hasher) { hasher.combine(accessToken) }
}
