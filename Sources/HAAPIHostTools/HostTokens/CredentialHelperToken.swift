import Foundation
import HAAPI

/// The token a credential helper hands to a tool that sends it as it is, in a header of every request (git, kubectl,
/// docker), and when it expires: the access token, or the ID token for `kube-credential`. A DPoP-bound access token is
/// never handed over: the tool cannot make the proof each request needs (RFC 9449 §7.1), so the resource server would
/// refuse it; `haapi-gateway proxy` makes those proofs.
public struct CredentialHelperToken: Sendable, Equatable {
    /// How long the token a helper hands over stays valid at least, in seconds: a shorter-lived one is refreshed first
    /// (as `token`'s default `--min-valid-seconds`), so that the tool's requests do not meet an expired token.
    public static let minimumValidSeconds: TimeInterval = 60

    /// The token.
    public let value: String
    /// When it expires, when known.
    public let expiry: Date?

    /// The access token of `tokens`, or why `tool` cannot be given it.
    /// - Parameters:
    ///   - tokens: The tokens of the token file.
    ///   - written: When the file was written (their expiry counts from then).
    ///   - path: The token file, for the message.
    ///   - tool: The tool asking, for the message (`git`, `kubectl`, `docker`).
    public static func accessToken(of tokens: OAuthTokens, writtenAt written: Date, path: String, tool: String) -> Result<Self, HostTokenProblem> {
        guard !tokens.isDPoPBound else {
            return .failure(
                HostTokenProblem(
                    "the access token in \(path) is DPoP-bound: \(tool) cannot send the DPoP proof each request needs; run haapi-gateway proxy, which adds one, and point \(tool) at it"
                )
            )
        }
        return checked(tokens.accessToken, expiry: TokenKeeper.expiry(of: tokens, writtenAt: written), path: path, what: "access token")
    }

    /// The ID token of `tokens` (it is not bound to the DPoP key, whatever the access token is), or why there is none.
    /// - Parameters:
    ///   - tokens: The tokens of the token file.
    ///   - path: The token file, for the message.
    ///   - now: The time it must not have expired at.
    public static func idToken(of tokens: OAuthTokens, path: String, now: Date = Date()) -> Result<Self, HostTokenProblem> {
        guard let idToken = tokens.idToken else {
            return .failure(HostTokenProblem("the tokens in \(path) have no ID token (the sign-in did not ask for the openid scope)"))
        }
        let expiry = IDTokenClaims.expiry(of: idToken)
        if let expiry, expiry <= now {
            return .failure(
                HostTokenProblem("the ID token in \(path) has expired, and refreshing brought no new one: sign in again with haapi-gateway login")
            )
        }
        return checked(idToken, expiry: expiry, path: path, what: "ID token")
    }

    /// The validity to ask of the access token so that a refresh brings a new ID token, when the ID token expires within
    /// `minimum` seconds while the access token does not (an upstream may give ID tokens a shorter life); nil when the ID
    /// token lasts long enough, has no `exp`, or the access token has no expiry to go by.
    /// - Parameters:
    ///   - tokens: The tokens as read, the access token valid for `minimum` seconds.
    ///   - written: When their file was written.
    ///   - minimum: How long the ID token must stay valid.
    ///   - now: The time now.
    public static func accessValidityForFreshIDToken(
        _ tokens: OAuthTokens,
        writtenAt written: Date,
        minimum: TimeInterval,
        now: Date = Date()
    ) -> TimeInterval? {
        guard let idExpiry = IDTokenClaims.expiry(of: tokens.idToken), idExpiry.timeIntervalSince(now) < minimum,
            let accessExpiry = TokenKeeper.expiry(of: tokens, writtenAt: written)
        else { return nil }
        // Asking for a second more than the access token has left makes it due, so the refresh is made (under the lock).
        return accessExpiry.timeIntervalSince(now).rounded(.up) + 1
    }

    /// `value`, unless it holds what would break a line or header of the tools' protocols (``HostTokenText``).
    private static func checked(_ value: String, expiry: Date?, path: String, what: String) -> Result<Self, HostTokenProblem> {
        HostTokenText.checked(value, what: what, path: path).map { Self(value: $0, expiry: expiry) }
    }
}
