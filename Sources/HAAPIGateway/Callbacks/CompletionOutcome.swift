import Foundation
import HAAPI

/// The document handed to callback sinks, with sorted keys:
///
/// ```json
/// {"outcome":"success","signInId":"…","subject":"…","claims":{"email":"…"},"token":{…}}
/// {"outcome":"error","signInId":"…","error":{"error":"access_denied","errorDescription":"…"}}
/// {"outcome":"cancelled","signInId":"…"}
/// ```
///
/// `signInId` is on every outcome of a sign-in (``SignInReference``); `subject` is the validated ID token's `sub`;
/// `claims` holds the claims ``OutcomeSettings`` names, and `claimsProblem` says why some could not be had (userinfo
/// failed), so that nothing vanishes silently.
public struct CompletionOutcome: Sendable, Encodable {
    /// Why a sign-in ended without tokens: an OAuth error (`error`, `errorDescription`, `errorUri`), a HAAPI problem (its
    /// type URI and title), or one of the gateway's own codes (`polling_timeout`, `invalid_id_token`, …).
    public struct Failure: Sendable, Encodable, Equatable {
        /// A code or problem type URI.
        public let error: String
        /// A human-readable description, when there is one.
        public let errorDescription: String?
        /// A page describing the error, when the upstream named one.
        public let errorUri: String?

        /// Creates a failure.
        public init(error: String, errorDescription: String? = nil, errorUri: String? = nil) {
            self.error = error
            self.errorDescription = errorDescription
            self.errorUri = errorUri
        }
    }

    /// What a successful sign-in says about the person, beyond the tokens.
    public struct Identity: Sendable, Equatable {
        /// The validated ID token's `sub`.
        public var subject: String?
        /// The configured claims found (``OutcomeSettings``); nil when none are configured.
        public var claims: [String: JSONValue]?
        /// Why configured claims could not be had (`userinfo: …`), if so.
        public var claimsProblem: String?

        /// Creates an identity.
        /// - Parameters:
        ///   - subject: The validated ID token's `sub`.
        ///   - claims: The configured claims found.
        ///   - claimsProblem: Why some could not be had.
        public init(subject: String? = nil, claims: [String: JSONValue]? = nil, claimsProblem: String? = nil) {
            self.subject = subject
            self.claims = claims
            self.claimsProblem = claimsProblem
        }
    }

    /// `success`, `error` or `cancelled`.
    public let outcome: String
    /// The sign-in this outcome ends (nil only for documents not made by a sign-in, such as a token file `keep` rewrote).
    public let signIn: SignInReference?
    /// The tokens (exactly the six `OAuthTokens` fields), on success.
    public let token: OAuthTokens?
    /// Why it failed, on error.
    public let error: Failure?
    /// The private key the tokens are bound to (PEM), only when they are DPoP-bound (`upstream.bindTokensToDPoP`):
    /// without it a receiver could not use or refresh them.
    public let dpopPrivateKey: String?
    /// The person, on success.
    public let identity: Identity?

    enum CodingKeys: String, CodingKey {
        case outcome, signInId, starter, token, error, dpopPrivateKey, subject, claims, claimsProblem
    }

    /// A successful sign-in.
    /// - Parameters:
    ///   - tokens: The tokens.
    ///   - signIn: The sign-in.
    ///   - identity: The subject and claims.
    public static func success(_ tokens: OAuthTokens, signIn: SignInReference? = nil, identity: Identity? = nil) -> CompletionOutcome {
        CompletionOutcome(
            outcome: "success",
            signIn: signIn,
            token: tokens,
            error: nil,
            dpopPrivateKey: tokens.isDPoPBound ? tokens.dpopKey?.privateKeyPEM : nil,
            identity: identity
        )
    }
    /// A device's successful sign-in: the tokens went to the device (its token endpoint poll), not to the sinks, which
    /// learn who signed in for which device.
    static func handedToDevice(signIn: SignInReference, identity: Identity?) -> CompletionOutcome {
        CompletionOutcome(outcome: "success", signIn: signIn, token: nil, error: nil, dpopPrivateKey: nil, identity: identity)
    }

    /// A sign-in that ended without tokens.
    /// - Parameters:
    ///   - failure: Why.
    ///   - signIn: The sign-in.
    public static func failure(_ failure: Failure, signIn: SignInReference? = nil) -> CompletionOutcome {
        CompletionOutcome(outcome: "error", signIn: signIn, token: nil, error: failure, dpopPrivateKey: nil, identity: nil)
    }
    /// A cancelled sign-in.
    /// - Parameter signIn: The sign-in.
    public static func cancelled(signIn: SignInReference?) -> CompletionOutcome {
        CompletionOutcome(outcome: "cancelled", signIn: signIn, token: nil, error: nil, dpopPrivateKey: nil, identity: nil)
    }
    /// A cancelled sign-in that names none.
    public static let cancelled = cancelled(signIn: nil)

    /// Encodes the document's members, absent ones left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(signIn?.id, forKey: .signInId)
        try container.encodeIfPresent(signIn?.starter, forKey: .starter)
        try container.encodeIfPresent(token, forKey: .token)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(dpopPrivateKey, forKey: .dpopPrivateKey)
        try container.encodeIfPresent(identity?.subject, forKey: .subject)
        try container.encodeIfPresent(identity?.claims, forKey: .claims)
        try container.encodeIfPresent(identity?.claimsProblem, forKey: .claimsProblem)
    }

    /// The JSON document sent to sinks (sorted keys).
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
