/// Why an ID token was not trusted (OpenID Connect Core 1.0 §3.1.3.7).
///
/// ``reason`` is stable for callers to switch on; ``message`` is written for an operator and the application that
/// receives the outcome. Neither ever holds the token or a claim value: only the names of what failed.
public struct IDTokenValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Reason: String, Sendable, CaseIterable {
        /// Not a compact JWS of three base64url parts with JSON objects for header and claims.
        case malformed
        /// An encrypted ID token (a JWE of five parts): not supported.
        case encrypted
        /// The header names no algorithm the validator accepts (`none` and `HS*` included), or a critical extension; or
        /// the token is signed with Ed448 (`EdDSA` whose only keys in the JWKS are Ed448 ones), which cannot be verified.
        case unsupportedAlgorithm
        /// No key of the upstream's JWKS matches the header's `kid` and `alg`, also after fetching the set again.
        case unknownKey
        /// The signature does not verify with the key.
        case invalidSignature
        /// `iss` is missing or differs from the issuer of the upstream's discovery.
        case wrongIssuer
        /// `aud` is missing or does not contain the client id.
        case wrongAudience
        /// `azp` is missing although there are several audiences, or differs from the client id.
        case wrongAuthorizedParty
        /// `exp` is missing, or has passed (beyond the allowed clock skew).
        case expired
        /// The flow sent a `nonce` and the token's is missing or another.
        case wrongNonce
        /// `sub` is missing or empty.
        case missingSubject
        /// The JWKS could not be fetched or read, or the upstream names none (`jwks_uri`).
        case keySetUnavailable
    }

    /// What failed.
    public let reason: Reason
    /// What failed, for operators and the outcome's `errorDescription`; never the token or a claim value.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - reason: What failed.
    ///   - message: A description without the token or claim values.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The reason and message.
    public var description: String { "IDTokenValidationError.\(reason.rawValue): \(message)" }
}
