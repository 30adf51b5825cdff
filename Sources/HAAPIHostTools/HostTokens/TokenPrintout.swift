import Foundation
import HAAPI
import HAAPIGateway

/// What `token` prints: the access token, the ID token, a whole `Authorization` header value or a JSON summary without
/// any token. A token that would break the script's line or header that uses it (``HostTokenText``), a missing ID token
/// and a header for DPoP-bound tokens are problems, never printed.
public enum TokenPrintout: Sendable, Equatable {
    /// The access token (the default).
    case accessToken
    /// `--id-token`.
    case idToken
    /// `--header`: `Bearer <access token>`.
    case header
    /// `--json`: tokenType, expiresAt, expiresIn, scope and subject.
    case json

    /// The printout the flags choose; nil when more than one is given.
    public static func chosen(idToken: Bool, header: Bool, json: Bool) -> TokenPrintout? {
        switch (idToken, header, json) {
        case (false, false, false): .accessToken
        case (true, false, false): .idToken
        case (false, true, false): .header
        case (false, false, true): .json
        default: nil
        }
    }

    /// The text printed for `tokens` (without its line end), or why nothing is printed.
    /// - Parameters:
    ///   - written: When the token file was written, for the expiry.
    ///   - path: The token file, for messages.
    ///   - now: The time `expiresIn` counts from.
    public func text(of tokens: OAuthTokens, writtenAt written: Date, path: String, now: Date = Date()) -> Result<String, HostTokenProblem> {
        switch self {
        case .accessToken:
            return HostTokenText.checked(tokens.accessToken, what: "access token", path: path)
        case .idToken:
            guard let token = tokens.idToken else {
                return .failure(HostTokenProblem("the tokens in \(path) have no ID token (the sign-in did not ask for the openid scope)"))
            }
            return HostTokenText.checked(token, what: "ID token", path: path)
        case .header:
            guard !tokens.isDPoPBound else {
                return .failure(
                    HostTokenProblem(
                        "the access token in \(path) is DPoP-bound: every request needs a DPoP proof made with the key in that file, which a header value alone cannot carry; haapi-gateway proxy --to URL adds one to every request it forwards"
                    )
                )
            }
            return HostTokenText.checked(tokens.accessToken, what: "access token", path: path).map { "Bearer " + $0 }
        case .json:
            return .success(Self.summary(of: tokens, writtenAt: written, now: now))
        }
    }

    /// The JSON summary: tokenType, expiresAt and expiresIn (when the expiry is known), scope and subject; keys sorted.
    static func summary(of tokens: OAuthTokens, writtenAt written: Date, now: Date) -> String {
        var summary: [String: Any] = ["tokenType": tokens.tokenType]
        if let expiry = TokenKeeper.expiry(of: tokens, writtenAt: written) {
            summary["expiresAt"] = ISO8601DateFormatter().string(from: expiry)
            summary["expiresIn"] = max(0, Int(expiry.timeIntervalSince(now).rounded(.down)))
        }
        summary["scope"] = tokens.scope
        summary["subject"] = IDTokenClaims.subject(of: tokens.idToken)
        let data = (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
