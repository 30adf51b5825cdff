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

    /// Who started a sign-in other than a browser opening the gateway: a device through the device authorization grant
    /// (`device`), or an application through a signed start link (`link`).
    public struct Starter: Sendable, Encodable, Equatable {
        /// `device` or `link`.
        public let kind: String
        /// The device client's id (a device).
        public let client: String?
        /// The device authorization's reference (not a secret; it names nothing else), or the link's `ref`.
        public let reference: String?
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
    /// Who started the sign-in, when a device did. A device's tokens go to the device only: its success carries no `token`.
    public var starter: Starter? = nil

    /// A successful sign-in.
    public static func success(_ tokens: OAuthTokens) -> CompletionOutcome {
        CompletionOutcome(outcome: "success", token: tokens, error: nil, dpopPrivateKey: tokens.isDPoPBound ? tokens.dpopKey?.privateKeyPEM : nil)
    }
    /// A device's successful sign-in: the tokens went to the device (its token endpoint poll), not to the sinks.
    static func handedToDevice(_ starter: Starter) -> CompletionOutcome {
        CompletionOutcome(outcome: "success", token: nil, error: nil, dpopPrivateKey: nil, starter: starter)
    }

    /// The same outcome, naming who started the sign-in.
    func started(by starter: Starter?) -> CompletionOutcome {
        var outcome = self
        outcome.starter = starter
        return outcome
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
