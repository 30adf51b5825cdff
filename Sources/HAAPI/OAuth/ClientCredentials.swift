import Synchronization

/// The client authentication a client uses now, and its assertion signer: replaceable while the client runs (a secret
/// rotated on disk), so that every later token, HAAPI-token and revocation request uses the new one.
final class ClientCredentials: Sendable {
    private let state: Mutex<(authentication: ClientAuthentication, signer: ClientAssertionSigner?)>

    /// - Throws: ``HAAPIError`` when the authentication's key does not load.
    init(_ authentication: ClientAuthentication) throws(HAAPIError) {
        state = Mutex((authentication, try ClientAssertionSigner(for: authentication)))
    }

    /// The authentication and signer in effect.
    var current: (authentication: ClientAuthentication, signer: ClientAssertionSigner?) { state.withLock { $0 } }

    /// Puts `authentication` in effect; its method must be the one in effect (a new method, or mutual TLS, whose
    /// certificate lives in the transport, needs a new client).
    /// - Throws: ``HAAPIError/Code/invalidConfiguration`` for another method; ``HAAPIError`` when the new key does not load.
    func replace(with authentication: ClientAuthentication) throws(HAAPIError) {
        guard Self.method(of: authentication) == Self.method(of: current.authentication), Self.method(of: authentication) != "mtls" else {
            throw HAAPIError(.invalidConfiguration, "only the secret or key of the client authentication in use can be replaced while running")
        }
        let signer = try ClientAssertionSigner(for: authentication)
        state.withLock { $0 = (authentication, signer) }
    }

    private static func method(of authentication: ClientAuthentication) -> String {
        switch authentication {
        case .none: "none"
        case .secretBasic: "basic"
        case .secretPost: "post"
        case .secretJWT: "jwt"
        case .privateKeyJWT: "private-key-jwt"
        case .mutualTLS: "mtls"
        }
    }
}
