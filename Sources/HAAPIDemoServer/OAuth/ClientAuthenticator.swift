import Crypto
import Foundation

/// Authenticates the client at the token, revocation and introspection endpoints:
/// `client_secret_basic`, `client_secret_post` and `private_key_jwt` (RFC 7523, ES256).
struct ClientAuthenticator: Sendable {
    let client: RegisteredClient
    let assertionKey: ImmutableKey<P256.Signing.PublicKey>
    let assertionReplayCache: ReplayCache
    /// Accepted `aud` values: the issuer and the endpoint URL.
    let audiences: Set<String>

    static let jwtBearerAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// Returns the authenticated client or the OAuth error to answer.
    func authenticate(authorization: String?, form: FormParameters, now: Date = Date()) -> Result<RegisteredClient, OAuthError> {
        let basic = authorization.flatMap { $0.lowercased().hasPrefix("basic ") ? String($0.dropFirst(6)) : nil }
        let usesPost = form["client_secret"] != nil
        let usesAssertion = form["client_assertion"] != nil || form["client_assertion_type"] != nil
        let methodCount = [basic != nil, usesPost, usesAssertion].filter { $0 }.count
        guard methodCount <= 1 else { return .failure(.invalidRequest("More than one client authentication method was used")) }

        if let basic {
            guard let data = Data(base64Encoded: basic.trimmingCharacters(in: .whitespaces)),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":"),
                let id = String(pair[..<colon]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                let secret = String(pair[pair.index(after: colon)...]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            else { return .failure(.invalidClient("Malformed HTTP Basic credentials", basicChallenge: true)) }
            if let formID = form["client_id"], formID != id { return .failure(.invalidRequest("client_id does not match the credentials")) }
            return check(id: id, secret: secret, basicChallenge: true)
        }
        if usesPost {
            guard let id = form["client_id"], let secret = form["client_secret"] else {
                return .failure(.invalidRequest("client_secret requires client_id"))
            }
            return check(id: id, secret: secret, basicChallenge: false)
        }
        if usesAssertion {
            return verifyAssertion(form: form, now: now)
        }
        return .failure(.invalidClient("Client authentication is required"))
    }

    private func check(id: String, secret: String, basicChallenge: Bool) -> Result<RegisteredClient, OAuthError> {
        guard id == client.clientID, RandomToken.constantTimeEquals(secret, client.secret) else {
            return .failure(.invalidClient("Client authentication failed", basicChallenge: basicChallenge))
        }
        return .success(client)
    }

    private func verifyAssertion(form: FormParameters, now: Date) -> Result<RegisteredClient, OAuthError> {
        guard form["client_assertion_type"] == Self.jwtBearerAssertionType else {
            return .failure(.invalidRequest("Unsupported client_assertion_type"))
        }
        guard let assertion = form["client_assertion"], let jws = CompactJWS(assertion) else {
            return .failure(.invalidClient("The client assertion is not a well-formed JWT"))
        }
        guard jws.header["alg"]?.stringValue == "ES256", jws.hasValidES256Signature(by: assertionKey.value) else {
            return .failure(.invalidClient("The client assertion signature is invalid"))
        }
        let claims = jws.claims
        guard claims["iss"]?.stringValue == client.clientID, claims["sub"]?.stringValue == client.clientID else {
            return .failure(.invalidClient("iss and sub must be the client_id"))
        }
        if let formID = form["client_id"], formID != client.clientID {
            return .failure(.invalidClient("client_id does not match the assertion"))
        }
        let audience: [String]
        switch claims["aud"] {
        case .string(let value)?: audience = [value]
        case .array(let values)?: audience = values.compactMap(\.stringValue)
        default: audience = []
        }
        guard audience.contains(where: audiences.contains) else {
            return .failure(.invalidClient("The client assertion audience is not this server"))
        }
        guard let exp = claims["exp"]?.integerValue else { return .failure(.invalidClient("The client assertion has no exp")) }
        let nowSeconds = Int(now.timeIntervalSince1970)
        guard exp > nowSeconds - 5 else { return .failure(.invalidClient("The client assertion has expired")) }
        guard exp <= nowSeconds + 3600 else { return .failure(.invalidClient("The client assertion lives too long")) }
        if let nbf = claims["nbf"]?.integerValue, nbf > nowSeconds + 5 {
            return .failure(.invalidClient("The client assertion is not valid yet"))
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.count <= 256 else {
            return .failure(.invalidClient("The client assertion has no jti"))
        }
        guard assertionReplayCache.insertIfNew(jti, now: now) else {
            return .failure(.invalidClient("The client assertion was already used (jti replay)"))
        }
        return .success(client)
    }
}
