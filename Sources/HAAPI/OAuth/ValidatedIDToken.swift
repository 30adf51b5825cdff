import Foundation

/// An ID token whose signature, issuer, audience, authorized party, expiry and nonce were checked
/// (``IDTokenValidator``): only then are its claims trusted.
///
/// The claims describe a person: ``description`` names none of their values.
public struct ValidatedIDToken: Sendable, Hashable, CustomStringConvertible {
    /// `sub`: the person's identifier at the issuer.
    public let subject: String
    /// Every claim of the token, as JSON values (numbers as the JSON parser reads them: doubles).
    public let claims: [String: JSONValue]
    /// The algorithm it was signed with.
    public let algorithm: JWSAlgorithm
    /// The `kid` of the key that verified it, if the header named one.
    public let keyID: String?

    /// Creates a validated token (the validator does; tests may).
    /// - Parameters:
    ///   - subject: `sub`.
    ///   - claims: Every claim.
    ///   - algorithm: The signing algorithm.
    ///   - keyID: The header's `kid`.
    public init(subject: String, claims: [String: JSONValue], algorithm: JWSAlgorithm, keyID: String?) {
        self.subject = subject
        self.claims = claims
        self.algorithm = algorithm
        self.keyID = keyID
    }

    /// The algorithm, key id and claim names; never a value.
    public var description: String {
        "ValidatedIDToken(algorithm: \(algorithm.rawValue), kid: \(keyID ?? "none"), claims: \(claims.keys.sorted().joined(separator: ",")))"
    }
}
