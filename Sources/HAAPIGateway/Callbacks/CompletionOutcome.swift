import Foundation
import HAAPI

/// The document handed to callback sinks: `{"outcome":"success","token":{…}}`, `{"outcome":"error","error":{…}}` or
/// `{"outcome":"cancelled"}`.
public struct CompletionOutcome: Sendable, Encodable {
    /// Why a sign-in ended without tokens: an OAuth error (`error`, `errorDescription`, `errorUri`), a HAAPI problem (its
    /// type URI and title), or one of the gateway's own codes (`polling_timeout`, `upstream_failure`).
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

    /// `success`, `error` or `cancelled`.
    public let outcome: String
    /// The tokens (exactly the six `OAuthTokens` fields), on success.
    public let token: OAuthTokens?
    /// Why it failed, on error.
    public let error: Failure?
    /// The private key the tokens are bound to (PEM), only when they are DPoP-bound (`upstream.bindTokensToDPoP`):
    /// without it a receiver could not use or refresh them.
    public let dpopPrivateKey: String?

    /// A successful sign-in.
    public static func success(_ tokens: OAuthTokens) -> CompletionOutcome {
        CompletionOutcome(outcome: "success", token: tokens, error: nil, dpopPrivateKey: tokens.isDPoPBound ? tokens.dpopKey?.privateKeyPEM : nil)
    }
    /// A sign-in that ended without tokens.
    public static func failure(_ failure: Failure) -> CompletionOutcome { CompletionOutcome(outcome: "error", token: nil, error: failure, dpopPrivateKey: nil) }
    /// A cancelled sign-in.
    public static let cancelled = CompletionOutcome(outcome: "cancelled", token: nil, error: nil, dpopPrivateKey: nil)

    /// The JSON document sent to sinks (sorted keys).
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
