import HAAPI

/// The tokens waiting for a device's poll as the database keeps them (sealed, ``PostgresDeviceAuthorizations``): the
/// six token fields, and the PEM of the DPoP key they are bound to, if they are (``OAuthTokens`` encodes no key).
package struct DeviceTokensDocument: Codable, Sendable {
    let token: OAuthTokens
    let dpopPrivateKey: String?

    package init(tokens: OAuthTokens) {
        self.token = tokens
        self.dpopPrivateKey = tokens.dpopKey?.privateKeyPEM
    }

    /// The tokens with their key; nil when the key does not load.
    package func tokens() -> OAuthTokens? {
        var tokens = token
        guard let pem = dpopPrivateKey else { return tokens }
        guard let key = try? DPoPKey(pem: pem) else { return nil }
        tokens.dpopKey = key
        return tokens
    }
}
