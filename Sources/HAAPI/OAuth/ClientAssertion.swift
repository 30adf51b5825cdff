import Foundation

/// Builds client assertions (RFC 7523 §2.2, §3): `iss` = `sub` = client id, `aud` = token endpoint, a unique `jti`, valid
/// for 60 seconds; signed with the client's key (`private_key_jwt`) or secret (`client_secret_jwt`).
enum ClientAssertion {
    struct Header: Encodable {
        let alg: String
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
    ///   - signer: The client's key or secret (with its `alg` and `kid`).
    ///   - now: The issue time.
    static func make(clientID: String, audience: URL, signer: ClientAssertionSigner, now: Date = Date()) throws(HAAPIError) -> String {
        let iat = Int(now.timeIntervalSince1970)
        let claims = Claims(iss: clientID, sub: clientID, aud: audience.absoluteString, jti: RandomToken.make(byteCount: 18), iat: iat, exp: iat + 60)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let header: Data
        let body: Data
        do {
            header = try encoder.encode(Header(alg: signer.algorithm, kid: signer.keyID))
            body = try encoder.encode(claims)
        } catch {
            throw HAAPIError(.crypto, "a client assertion could not be encoded")
        }
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(body)
        return signingInput + "." + Base64URL.encode(try signer.signature(of: Data(signingInput.utf8)))
    }
}
