import Foundation
import HAAPI
import HAAPIGateway

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
        /// Another process refreshed them meanwhile (or they no longer needed it): the file holds these, and the token
        /// endpoint was not asked.
        case refreshedElsewhere(OAuthTokens)
        /// The token file is gone or not one of ours (another process's refresh ended the sign-in, say).
        case unreadable(GatewayError)
        /// The lock beside the token file could not be taken.
        case notLocked(GatewayError)
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

    /// When tokens written at `written` expire, nil when they do not say.
    public static func expiry(of tokens: OAuthTokens, writtenAt written: Date) -> Date? {
        tokens.expiresIn.map { written.addingTimeInterval(Double($0)) }
    }

    /// Whether tokens written at `written` stay valid for `minimum` from `now` (those without an expiry do).
    public static func areValid(_ tokens: OAuthTokens, writtenAt written: Date, for minimum: TimeInterval, now: Date = Date()) -> Bool {
        expiry(of: tokens, writtenAt: written).map { $0.timeIntervalSince(now) >= minimum } ?? true
    }

    /// Refreshes the tokens of the file once, however many processes ask at the same moment: under the file's lock
    /// (``TokenFileLock``) the file is read again, and when its access token is no longer `seen`'s (another process
    /// refreshed it while this one waited) or `stillValid` says it need not be, that is the answer and the token endpoint
    /// is not asked; else the refresh, through the manager `manager` makes (only then).
    /// - Parameters:
    ///   - seen: The tokens the caller read and found due.
    ///   - stillValid: Whether tokens read under the lock (with their file's time) need no refresh.
    ///   - manager: Where the refresh goes.
    public func refreshOnce(
        after seen: OAuthTokens,
        stillValid: (OAuthTokens, Date) -> Bool = { _, _ in false },
        manager: () async throws(HAAPIError) -> TokenManager
    ) async -> Outcome {
        do {
            return try await TokenFileLock.withLock(of: path) { () async -> Outcome in
                let current: OAuthTokens, written: Date
                do throws(GatewayError) {
                    (current, written) = try TokenFile.read(path)
                } catch {
                    return .unreadable(error)
                }
                if current.accessToken != seen.accessToken || stillValid(current, written) { return .refreshedElsewhere(current) }
                let tokenManager: TokenManager
                do throws(HAAPIError) {
                    tokenManager = try await manager()
                } catch {
                    return .failed(error)
                }
                return await refresh(current, with: tokenManager)
            }
        } catch let error as GatewayError {
            return .notLocked(error)
        } catch {
            return .notLocked(GatewayError(.internalError, "the token file's lock: \(error)"))
        }
    }

    /// Refreshes `tokens` through `manager` and keeps the result in the token file (without the lock: see
    /// ``refreshOnce(after:stillValid:manager:)``).
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
                try TokenFile.write(.success(merged), to: path, origin: TokenFile.origin(of: path))
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
