import Crypto
import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1), parsed but not yet verified.
struct CompactJWS: Sendable {
    let header: [String: JSONValue]
    let claims: [String: JSONValue]
    let signingInput: Data
    let signature: Data

    /// Parses `header.payload.signature`; nil when any part is not base64url JSON.
    init?(_ compact: String) {
        guard compact.utf8.count <= 8192 else { return nil }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Base64URL.decode(parts[0]),
            let claimsData = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = JSONValue.object(from: headerData),
            let claims = JSONValue.object(from: claimsData)
        else { return nil }
        self.header = header
        self.claims = claims
        self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    /// Whether the signature is a valid ES256 signature by `key`.
    func hasValidES256Signature(by key: P256.Signing.PublicKey) -> Bool {
        guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else {
            return false
        }
        return key.isValidSignature(ecdsa, for: signingInput)
    }
}
