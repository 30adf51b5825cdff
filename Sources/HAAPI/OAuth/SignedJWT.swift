import Foundation

/// A JWT in the JWS compact serialisation (RFC 7515 §7.1, RFC 7519 §7.2), split and decoded but not yet trusted.
struct SignedJWT: Sendable {
    /// The JOSE header's members.
    let header: [String: JSONValue]
    /// The claims.
    let claims: [String: JSONValue]
    /// The ASCII bytes of `header.payload`, what the signature covers.
    let signingInput: Data
    /// The decoded signature (empty for an unsigned token, which no key verifies).
    let signature: Data

    /// Splits and decodes `token`.
    /// - Throws: ``IDTokenValidationError/Reason/encrypted`` for a JWE (five parts); ``IDTokenValidationError/Reason/malformed``
    ///   for anything that is not three base64url parts with JSON objects for header and claims.
    init(_ token: String) throws(IDTokenValidationError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 5 { throw IDTokenValidationError(.encrypted, "the ID token is encrypted (a JWE), which is not supported") }
        // The signature may be empty here (`alg: none`): the algorithm is refused by name before any signature is read.
        guard parts.count == 3, Self.isBase64URL(parts[0]), Self.isBase64URL(parts[1]), parts[2].isEmpty || Self.isBase64URL(parts[2]) else {
            throw IDTokenValidationError(.malformed, "the ID token is not a compact JWS of three base64url parts")
        }
        guard let headerBytes = Base64URL.decode(String(parts[0])), case .object(let header)? = try? JSONParser.parse(headerBytes) else {
            throw IDTokenValidationError(.malformed, "the ID token's header is not a JSON object")
        }
        guard let claimBytes = Base64URL.decode(String(parts[1])), case .object(let claims)? = try? JSONParser.parse(claimBytes) else {
            throw IDTokenValidationError(.malformed, "the ID token's claims are not a JSON object")
        }
        guard let signature = Base64URL.decode(String(parts[2])) else {
            throw IDTokenValidationError(.malformed, "the ID token's signature is not base64url")
        }
        self.header = header
        self.claims = claims
        self.signingInput = Data((parts[0] + "." + parts[1]).utf8)
        self.signature = signature
    }

    /// Whether `part` uses only the base64url alphabet, without padding (RFC 7515 §2).
    private static func isBase64URL(_ part: Substring) -> Bool {
        !part.isEmpty
            && part.utf8.allSatisfy { byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
            }
    }
}
