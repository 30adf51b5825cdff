import Foundation
import HAAPI
import HAAPIGateway
import Logging

/// What `keep` does until it is stopped: waits until the tokens in the file are due
/// (``TokenKeeper/refreshDue(for:writtenAt:)``), refreshes them through `manager` (the upstream's token endpoint, or a
/// central gateway's) under the token file's lock (when another process refreshed them meanwhile, it waits for those
/// instead), says so, runs the hook, and again; a failed call is retried after 1 s, doubling to at most a minute. With
/// `once` it refreshes at once and stops.
public struct RefreshLoop<Waiting: Clock>: Sendable where Waiting.Duration == Duration {
    /// Why the loop stopped.
    public enum Ending: Sendable {
        /// Stopped (the task was cancelled), or `once` and refreshed.
        case stopped
        /// The token file is missing or not one of ours.
        case unreadable(GatewayError)
        /// `once`, and the call failed.
        case failed(HAAPIError)
        /// The tokens have no refresh token.
        case noRefreshToken
        /// Refreshed, but the file could not be written.
        case notWritten(GatewayError)
        /// `invalid_grant`: the file was deleted; sign in again.
        case signInAgain
        /// Another OAuth error.
        case refused(OAuthErrorResponse)
        /// The lock beside the token file could not be taken.
        case notLocked(GatewayError)
    }

    let keeper: TokenKeeper
    let manager: TokenManager
    let once: Bool
    let hook: RefreshHook?
    let clock: Waiting
    let now: @Sendable () -> Date
    let logger: Logger

    /// - Parameters:
    ///   - keeper: The token file's keeper.
    ///   - manager: Where refreshes go.
    ///   - once: Refresh once now, then stop.
    ///   - hook: A program run after each refresh.
    ///   - clock: What the loop waits on (tests pass one whose sleeps end at once).
    ///   - now: The wall clock the file's age is measured by.
    ///   - logger: Warnings of failed calls and hooks; at debug level, how long it waits for the next refresh.
    public init(
        keeper: TokenKeeper,
        manager: TokenManager,
        once: Bool,
        hook: RefreshHook?,
        clock: Waiting,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger
    ) {
        self.keeper = keeper
        self.manager = manager
        self.once = once
        self.hook = hook
        self.clock = clock
        self.now = now
        self.logger = logger
    }

    /// Runs until stopped or a refresh cannot go on; `announce` gets a line for each refresh.
    public func run(announce: @Sendable (String) -> Void) async -> Ending {
        var backoff = Duration.seconds(1)
        // When this loop last wrote the file, by its own clock (the file's modification time says the same, in real time).
        var refreshedAt = Date.distantPast
        while !Task.isCancelled {
            let tokens: OAuthTokens, written: Date
            do {
                (tokens, written) = try TokenFile.read(keeper.path)
            } catch {
                return .unreadable(error)
            }
            if !once {
                let wait = TokenKeeper.refreshDue(for: tokens, writtenAt: max(written, refreshedAt)).timeIntervalSince(now())
                if wait > 0 {
                    let pause = Duration.milliseconds(Int64(wait * 1000))
                    logger.debug("waiting for the next refresh", metadata: ["dueInSeconds": "\(Int(wait.rounded(.up)))"])
                    do { try await clock.sleep(for: pause) } catch { return .stopped }
                }
            }
            // Under the token file's lock: a `token` or a credential helper refreshing at the same moment makes one refresh.
            let manager = manager
            switch await keeper.refreshOnce(after: tokens, manager: { () throws(HAAPIError) in manager }) {
            case .refreshedElsewhere:
                backoff = .seconds(1)
                refreshedAt = now()
                if once { return .stopped }
            case .refreshed(let merged):
                backoff = .seconds(1)
                refreshedAt = now()
                announce(
                    "Refreshed the tokens in \(keeper.path); the access token expires in \(merged.expiresIn.map { "\($0) s" } ?? "an unknown time").\n"
                )
                await hook?.run(tokenFile: keeper.path, logger: logger)
                if once { return .stopped }
            case .failed(let error):
                if once { return .failed(error) }
                logger.warning(
                    "refresh failed; retrying",
                    metadata: ["error": "\(error.code)", "retryInSeconds": .stringConvertible(backoff.components.seconds)]
                )
                do { try await clock.sleep(for: backoff) } catch { return .stopped }
                backoff = min(backoff * 2, .seconds(60))
            case .noRefreshToken: return .noRefreshToken
            case .notWritten(let error): return .notWritten(error)
            case .signInAgain: return .signInAgain
            case .refused(let error): return .refused(error)
            case .unreadable(let error): return .unreadable(error)
            case .notLocked(let error): return .notLocked(error)
            }
        }
        return .stopped
    }
}
