import HAAPI

/// The parts of a client authentication that settings name, read back for ``ConfigurationKey``.
extension ClientAuthentication {
    /// The method as `upstream.clientAuthentication` names it.
    var settingName: String {
        switch self {
        case .none: "none"
        case .secretBasic: "secret-basic"
        case .secretPost: "secret-post"
        case .secretJWT: "secret-jwt"
        case .privateKeyJWT: "private-key-jwt"
        case .mutualTLS: "mtls"
        }
    }

    /// The client secret of the secret methods.
    var secret: String? {
        switch self {
        case .secretBasic(let secret), .secretPost(let secret), .secretJWT(let secret): secret
        case .none, .privateKeyJWT, .mutualTLS: nil
        }
    }

    /// The private key of private-key-jwt and mtls.
    var privateKeyPEM: String? {
        switch self {
        case .privateKeyJWT(let key, _, _), .mutualTLS(_, let key): key
        case .none, .secretBasic, .secretPost, .secretJWT: nil
        }
    }

    /// The client certificate of mtls.
    var certificatePEM: String? {
        if case .mutualTLS(let certificate, _) = self { certificate } else { nil }
    }

    /// private-key-jwt's key id.
    var keyID: String? {
        if case .privateKeyJWT(_, let keyID, _) = self { keyID } else { nil }
    }

    /// private-key-jwt's algorithm.
    var assertionAlgorithm: String? {
        if case .privateKeyJWT(_, _, let algorithm) = self { algorithm.rawValue } else { nil }
    }
}
