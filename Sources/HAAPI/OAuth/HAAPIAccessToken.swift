/// The DPoP-bound HAAPI access token of one flow. A secret; ``description`` is redacted.
public struct HAAPIAccessToken: Sendable, Hashable, CustomStringConvertible {
    /// The token value.
    public let value: String
    /// The token type (`DPoP`).
    public let tokenType: String
    /// The lifetime in seconds as sent (default 600 when absent).
    public let expiresIn: Int

    /// Creates a token.
    /// - Parameters:
    ///   - value: The token.
    ///   - tokenType: The type.
    ///   - expiresIn: The lifetime in seconds.
    public init(value: String, tokenType: String, expiresIn: Int) {
        self.value = value
        self.tokenType = tokenType
        self.expiresIn = expiresIn
    }

    /// The token type and lifetime; the value is redacted.
    public var description: String { "HAAPIAccessToken(type: \(tokenType), expiresIn: \(expiresIn), value: <redacted>)" }
}
