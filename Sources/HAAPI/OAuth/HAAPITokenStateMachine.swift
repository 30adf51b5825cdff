/// The HAAPI token lifecycle of one flow, without I/O: the owner asks for an action and carries it out.
///
/// - `tokenRequested(now:)` → use the cached token while it has more than the refresh margin left, else fetch.
/// - `tokenFetched(_:now:)` → cache it with its expiry.
/// - `tokenRejected(_:)` → on a 401 `invalid_token`: drop the token; fetch again once per request, then fail.
public struct HAAPITokenStateMachine: Sendable {
    enum State: Sendable {
        case empty
        case valid(HAAPIAccessToken, expiresAt: ContinuousClock.Instant)
    }

    /// What the owner should do.
    public enum Action: Sendable, Equatable {
        /// Use this cached token.
        case useCached(HAAPIAccessToken)
        /// Fetch a new token from the token endpoint.
        case fetch
        /// Give up with this error.
        case fail(HAAPIError)
    }

    private var state: State = .empty
    private let refreshMargin: Duration

    /// Creates a machine.
    /// - Parameter refreshMargin: A token is replaced when it has less than this left.
    public init(refreshMargin: Duration) { self.refreshMargin = refreshMargin }

    /// A request needs a token.
    /// - Parameter now: The current instant.
    public mutating func tokenRequested(now: ContinuousClock.Instant) -> Action {
        switch state {
        case .empty:
            return .fetch
        case .valid(let token, let expiresAt):
            if now + refreshMargin < expiresAt { return .useCached(token) }
            state = .empty
            return .fetch
        }
    }

    /// A token was fetched.
    /// - Parameters:
    ///   - token: The token.
    ///   - now: The instant the request was sent (so the expiry errs on the early side).
    public mutating func tokenFetched(_ token: HAAPIAccessToken, now: ContinuousClock.Instant) {
        state = .valid(token, expiresAt: now + .seconds(token.expiresIn))
    }

    /// The server rejected `token` with `invalid_token`.
    /// - Parameters:
    ///   - token: The rejected token.
    ///   - alreadyRefetched: Whether this request already fetched a fresh token after a rejection.
    public mutating func tokenRejected(_ token: HAAPIAccessToken, alreadyRefetched: Bool) -> Action {
        if case .valid(let cached, _) = state, cached == token { state = .empty }
        if alreadyRefetched {
            return .fail(HAAPIError(.dpopRejected, "the upstream rejected a freshly fetched HAAPI token (invalid_token)", status: 401))
        }
        return .fetch
    }

    /// The cached token and when it expires, if any (a flow saving its state).
    var cached: (token: HAAPIAccessToken, expiresAt: ContinuousClock.Instant)? {
        if case .valid(let token, let expiresAt) = state { return (token, expiresAt) }
        return nil
    }

    /// Caches a token saved with a flow's state (``cached``), expiring at `expiresAt`; an instant already past (or within
    /// the refresh margin) makes the next request fetch a new one, as for any token.
    /// - Parameters:
    ///   - token: The token.
    ///   - expiresAt: When it expires.
    mutating func restore(_ token: HAAPIAccessToken, expiresAt: ContinuousClock.Instant) {
        state = .valid(token, expiresAt: expiresAt)
    }

    /// Whether a token is cached (for tests and diagnostics).
    public var hasToken: Bool {
        if case .valid = state { return true }
        return false
    }
}
