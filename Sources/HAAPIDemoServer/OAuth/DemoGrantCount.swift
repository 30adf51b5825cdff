import Synchronization

/// How many tokens the token endpoint issued, by grant type (`refresh_token`, `authorization_code`, …): what a test
/// counts, such as one refresh for twenty callers at once.
final class DemoGrantCount: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one token response of `grantType`.
    func issued(_ grantType: String) {
        counts.withLock { $0[grantType, default: 0] += 1 }
    }

    /// The token responses of `grantType` so far.
    func count(_ grantType: String) -> Int {
        counts.withLock { $0[grantType] ?? 0 }
    }
}
