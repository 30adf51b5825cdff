import Foundation

/// The upstream's published keys (`jwks_uri`, RFC 7517 §5): the signature keys the validator can use; other members
/// (encryption keys, unsupported types) are skipped.
public struct JSONWebKeySet: Sendable {
    /// The keys that can verify an accepted algorithm.
    public let keys: [JSONWebKey]

    /// Creates a set.
    /// - Parameter keys: The keys.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// Reads a JWK Set document.
    /// - Parameter body: The JSON bytes.
    /// - Throws: ``IDTokenValidationError/Reason/keySetUnavailable`` when it is not an object with a `keys` array.
    public init(json body: Data) throws(IDTokenValidationError) {
        guard let document = try? JSONParser.parse(body), case .array(let members)? = document["keys"] else {
            throw IDTokenValidationError(.keySetUnavailable, "the upstream's JWKS is not a JSON object with a keys array")
        }
        keys = members.compactMap(JSONWebKey.init)
    }

    /// The keys that may verify a token with this header: those with the header's `kid` when it names one, else every
    /// key of the algorithm's type (OpenID Connect Core §10.1 requires a `kid` only when the set holds several keys).
    /// - Parameters:
    ///   - keyID: The header's `kid`.
    ///   - algorithm: The header's `alg`.
    public func candidates(keyID: String?, algorithm: JWSAlgorithm) -> [JSONWebKey] {
        keys.filter { ($0.keyID == keyID || keyID == nil) && $0.canVerify(algorithm) }
    }
}
