/// Where the tokens of a token file came from, as `login` records it in the file (nothing secret): the upstream's issuer
/// and the client id, or the central gateway and the device client's id. The commands that use the file later (`token`,
/// `keep`, `logout`) take it when their configuration names no upstream, so that after `login` they need no upstream
/// options; what a refresh needs besides (a client secret, a key) still comes from the configuration.
public struct TokenOrigin: Codable, Sendable, Equatable {
    /// Who issued the tokens.
    public enum Issuer: String, Codable, Sendable {
        /// The upstream HAAPI server, through a gateway of `login`'s own.
        case upstream
        /// A central haapi-gateway, to its device client (`login --via`).
        case gateway
    }

    /// Who issued the tokens.
    public let issuedBy: Issuer
    /// The upstream's issuer (`upstream.baseURL`), or the central gateway's URL (`--via`).
    public let issuer: String
    /// The client id at the upstream, or the device client's id at the central gateway.
    public let clientID: String

    public init(issuedBy: Issuer, issuer: String, clientID: String) {
        self.issuedBy = issuedBy
        self.issuer = issuer
        self.clientID = clientID
    }
}
