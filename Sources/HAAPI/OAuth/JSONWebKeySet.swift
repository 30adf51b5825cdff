import Foundation

/// The upstream's published keys (`jwks_uri`, RFC 7517 §5): the signature keys the validator can use; other members
/// (encryption keys, unsupported types and curves, Ed448 keys among them) are skipped.
public struct JSONWebKeySet: Sendable {
    /// The keys that can verify an accepted algorithm.
    public let keys: [JSONWebKey]
    /// The `kid`s (nil for a key without one) of the set's public Ed448 signature keys, which were skipped: kept only so
    /// that a token needing one of them is refused with a message naming Ed448 rather than an unknown key.
    let ed448KeyIDs: [String?]

    /// How many public Ed448 signature keys the set holds (none of them can be used here).
    public var ed448KeyCount: Int { ed448KeyIDs.count }

    /// Creates a set.
    /// - Parameter keys: The keys.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
        self.ed448KeyIDs = []
    }

    /// Reads a JWK Set document.
    /// - Parameter body: The JSON bytes.
    /// - Throws: ``IDTokenValidationError/Reason/keySetUnavailable`` when it is not an object with a `keys` array.
    public init(json body: Data) throws(IDTokenValidationError) {
        guard let document = try? JSONParser.parse(body), case .array(let members)? = document["keys"] else {
            throw IDTokenValidationError(.keySetUnavailable, "the upstream's JWKS is not a JSON object with a keys array")
        }
        var keys: [JSONWebKey] = [], ed448KeyIDs: [String?] = []
        for member in members {
            switch JSONWebKey.read(member) {
            case .key(let key): keys.append(key)
            case .ed448(let keyID): ed448KeyIDs.append(keyID)
            case .skipped: break
            }
        }
        self.keys = keys
        self.ed448KeyIDs = ed448KeyIDs
    }

    /// The keys that may verify a token with this header: those with the header's `kid` when it names one, else every
    /// key of the algorithm's type (OpenID Connect Core §10.1 requires a `kid` only when the set holds several keys).
    /// - Parameters:
    ///   - keyID: The header's `kid`.
    ///   - algorithm: The header's `alg`.
    public func candidates(keyID: String?, algorithm: JWSAlgorithm) -> [JSONWebKey] {
        keys.filter { ($0.keyID == keyID || keyID == nil) && $0.canVerify(algorithm) }
    }

    /// Whether an Ed448 key of the set would have been a candidate for an `EdDSA` token with this `kid` (any Ed448 key
    /// when the token names none).
    func hasEd448Key(keyID: String?) -> Bool {
        ed448KeyIDs.contains { $0 == keyID || keyID == nil }
    }
}
