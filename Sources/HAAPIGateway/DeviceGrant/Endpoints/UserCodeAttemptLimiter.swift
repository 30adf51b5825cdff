/// Bounds the wrong user codes entered on the verification page (RFC 8628 §5.1: "the authorization server SHOULD
/// rate-limit user code attempts"): per client address (`devices.maximumWrongCodesPerAddress`) and from all addresses
/// together (`devices.maximumWrongCodes`), each within the sliding window `devices.wrongCodeWindowSeconds`. Past its
/// bound an address gets 429 before the code is looked up, so a guesser learns nothing more.
///
/// The bound of all addresses together holds back only addresses that have entered a wrong code themselves in the
/// window: a person who types the right code at the first try gets through whatever guessers elsewhere do (before,
/// 100 wrong codes from anywhere locked every person out for the window). A guesser then gets at most
/// `maximumWrongCodes` wrong codes in a window from all its addresses, plus one more per further address: the chance of
/// guessing a waiting code is bounded in docs/security.md (B23).
///
/// Counted in this process (``MemoryUserCodeAttemptLimiter``, the memory store), or with `sessions.store: postgres` for
/// the replicas together (``PostgresUserCodeAttemptLimiter``): a balancer spreading a guesser over N replicas does not
/// give it N times the bounds.
package protocol UserCodeAttemptLimiter: Sendable {
    /// Seconds until `address` may enter a code again, or nil when it may now. Without an address (a Unix socket)
    /// every entry counts as a guesser's.
    /// - Throws: ``GatewayError`` (503, "try again") when the counts cannot be read: the code is then not looked up at
    ///   all, never let through uncounted.
    func retryAfter(address: String?) async throws(GatewayError) -> Int?
    /// Counts a wrong code entered from `address`.
    /// - Throws: ``GatewayError`` (503, "try again") when it cannot be counted: the page then says neither that the
    ///   code was wrong nor anything else about it.
    func recordWrongCode(address: String?) async throws(GatewayError)
}
