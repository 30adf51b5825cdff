import Foundation
import HAAPI

/// What `keep` does with the tokens of `login`, one refresh at a time: when the next refresh is due (three quarters of
/// the access token's lifetime after the file was written), and the refresh itself, its answer merged with what it
/// leaves out and written to the token file (0600, atomically).
public struct TokenKeeper: Sendable {
    /// What one refresh came to.
    public enum Outcome: Sendable {
        /// The fresh tokens are in the file.
        case refreshed(OAuthTokens)
        /// The refresh token is no longer valid (`invalid_grant`); the token file was deleted: sign in again.
        case signInAgain
        /// The token endpoint refused the refresh with another OAuth error.
        case refused(OAuthErrorResponse)
        /// The tokens hold no refresh token.
        case noRefreshToken
        /// The upstream could not be asked, or its answer not read (retry later).
        case failed(HAAPIError)
        /// Refreshed, but the token file could not be written.
        case notWritten(GatewayError)
    }

    /// The token file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// When the tokens written at `written` are due for a refresh: three quarters of their lifetime later (300 s when
    /// it is unknown), at least a second.
    public static func refreshDue(for tokens: OAuthTokens, writtenAt written: Date) -> Date {
        written.addingTimeInterval(max(1, Double(tokens.expiresIn ?? 300) * 0.75))
    }

    /// The tokens after a refresh: a refresh answer may leave out the refresh and ID tokens and the scope, and the
    /// previous ones stay valid then; the DPoP key the tokens are bound to stays.
    public static func merge(_ fresh: OAuthTokens, into previous: OAuthTokens) -> OAuthTokens {
        OAuthTokens(
            accessToken: fresh.accessToken,
            expiresIn: fresh.expiresIn,
            refreshToken: fresh.refreshToken ?? previous.refreshToken,
            tokenType: fresh.tokenType,
            scope: fresh.scope ?? previous.scope,
            idToken: fresh.idToken ?? previous.idToken,
            dpopKey: previous.dpopKey
        )
    }

    /// Refreshes `tokens` through `manager` and keeps the result in the token file.
    public func refresh(_ tokens: OAuthTokens, with manager: TokenManager) async -> Outcome {
        guard tokens.refreshToken != nil else { return .noRefreshToken }
        let answer: TokenExchangeOutcome
        do {
            answer = try await manager.refresh(tokens)
        } catch {
            return .failed(error)
        }
        switch answer {
        case .tokens(let fresh):
            let merged = Self.merge(fresh, into: tokens)
            do {
                try TokenFile.write(.success(merged), to: path)
            } catch {
                return .notWritten(error)
            }
            return .refreshed(merged)
        case .oauthError(let error) where error.error == "invalid_grant":
            try? FileManager.default.removeItem(atPath: path)
            return .signInAgain
        case .oauthError(let error):
            return .refused(error)
        }
    }
}
