import Crypto
import Foundation

/// Builds ES256 compact JWS strings (DPoP proofs, client assertions).
enum CompactJWS {
    /// Signs `header` and `claims` with `key`.
    /// - Parameters:
    ///   - header: The JOSE header.
    ///   - claims: The claims.
    ///   - key: The P-256 signing key.
    static func sign<Header: Encodable, Claims: Encodable>(header: Header, claims: Claims, key: P256.Signing.PrivateKey) throws(HAAPIError) -> String
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let headerData: Data
        let claimsData: Data
        do {
            headerData = try encoder.encode(header)
            claimsData = try encoder.encode(claims)
        } catch {
            throw HAAPIError(.crypto, "a JWS could not be encoded")
        }
        return try sign(headerSegment: Base64URL.encode(headerData), claimsJSON: claimsData, key: key)
    }

    /// Signs an already encoded header segment and the claims JSON bytes.
    /// - Parameters:
    ///   - headerSegment: The base64url header.
    ///   - claimsJSON: The claims as JSON bytes.
    ///   - key: The P-256 signing key.
    static func sign<Bytes: Sequence>(headerSegment: String, claimsJSON: Bytes, key: P256.Signing.PrivateKey) throws(HAAPIError) -> String
    where Bytes.Element == UInt8 {
        let signingInput = headerSegment + "." + Base64URL.encode(claimsJSON)
        do {
            let signature = try key.signature(for: Data(signingInput.utf8))
            return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
        } catch {
            throw HAAPIError(.crypto, "a JWS could not be signed")
        }
    }
}
