import Foundation
import HAAPI

/// The token model handed to callback sinks: `{"outcome":"success","token":{…}}` or `{"outcome":"cancelled"}`.
public struct CompletionOutcome: Sendable, Encodable {
    /// `success` or `cancelled`.
    public let outcome: String
    /// The tokens (exactly the six `OAuthTokens` fields), on success.
    public let token: OAuthTokens?

    /// A successful sign-in.
    public static func success(_ tokens: OAuthTokens) -> CompletionOutcome { CompletionOutcome(outcome: "success", token: tokens) }
    /// A cancelled sign-in.
    public static let cancelled = CompletionOutcome(outcome: "cancelled", token: nil)

    /// The JSON document sent to sinks (sorted keys).
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }
}

