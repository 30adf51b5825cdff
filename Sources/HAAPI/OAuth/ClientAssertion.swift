import Crypto
import Foundation

/// Builds `private_key_jwt` client assertions (RFC 7523): ES256, `iss` = `sub` = client id, `aud` = token endpoint.
enum ClientAssertion {
    struct Header: Encodable {
        let alg = "ES256"
        let typ = "JWT"
        let kid: String?
    }

    struct Claims: Encodable {
        let iss: String
        let sub: String
        let aud: String
        let jti: String
        let iat: Int
        let exp: Int
    }

    /// The assertion type parameter value.
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// Creates a signed assertion valid for 60 seconds.
    /// - Parameters:
    ///   - clientID: The client id.
    ///   - audience: The token endpoint URL.
    ///   - key: The signing key.
    ///   - keyID: An optional `kid`.
    ///   - now: The issue time.
    static func make(clientID: String, audience: URL, key: P256.Signing.PrivateKey, keyID: String?, now: Date = Date()) throws(HAAPIError) -> String {
        let iat = Int(now.timeIntervalSince1970)
        let claims = Claims(iss: clientID, sub: clientID, aud: audience.absoluteString, jti: RandomToken.make(byteCount: 18), iat: iat, exp: iat + 60)
        return try CompactJWS.sign(header: Header(kid: keyID), claims: claims, key: key)
    }
}
