import HAAPI

/// Where the device authorizations under way (RFC 8628) are kept: created by the device authorization endpoint, found
/// by user code on the verification page, decided by the sign-in, and collected by the device's poll of the token
/// endpoint. In this process's memory (``MemoryDeviceAuthorizations``), or with `sessions.store: postgres` in the
/// database (``PostgresDeviceAuthorizations``), where every replica serves every step and tokens are handed over once
/// across them (at least once when an answer is lost: ``DeviceTokenHandOver``).
///
/// Each call is one atomic step: a user code entered twice at once is counted twice, a code confirmed from two browsers
/// starts one sign-in, and of two polls that meet approved tokens one gets them and the other `authorization_pending`
/// (`invalid_grant` once the hand-over has ended).
/// Failures of a shared store are ``GatewayError``s (`storeUnavailable`, retried after 5 s), as the session store's.
/// A store reads `devices` at each operation (``SettingsSource``): after a reload, new authorizations get the new
/// settings, those under way keep their expiry and interval.
package protocol DeviceAuthorizationStore: Sendable {
    /// Starts a device authorization for `client`, asked from `address`.
    /// - Returns: The device code (given to the device once, never kept) and the authorization; nil when
    ///   `devices.maximumPendingAuthorizations` are waiting already.
    func create(
        client: DeviceClient,
        scopes: [String]?,
        address: String?
    ) async throws(GatewayError) -> (deviceCode: String, authorization: DeviceAuthorization)?
    /// How many device authorizations asked from `address` are waiting (not yet confirmed or refused, not expired).
    func waiting(from address: String) async throws(GatewayError) -> Int
    /// The person entered `userCode` (normalized) on the verification page; each entry of a known code is counted.
    func enter(userCode: String) async throws(GatewayError) -> UserCodeEntry
    /// The person confirmed the device: the sign-in starts, and nobody else can start one with this code. The
    /// confirmation counts as an entry of the code (`devices.maximumEntriesPerCode`), as every post naming it does.
    /// - Returns: The authorization, or nil when the code is no longer waiting (expired, claimed by another browser, or
    ///   entered too often).
    func beginSignIn(userCode: String) async throws(GatewayError) -> DeviceAuthorization?
    /// Whether `userCode` belongs to a device authorization that has not expired, whatever its state (a repeated
    /// confirmation, a double click, is not a wrong code). Not counted as an entry.
    func knows(userCode: String) async throws(GatewayError) -> Bool
    /// The sign-in could not start (the upstream was unreachable): the code waits again, for "Try again".
    func reopen(reference: String) async throws(GatewayError)
    /// The person refused the device on the verification page (a waiting code): the device is told `access_denied`.
    /// The refusal counts as an entry of the code.
    /// - Returns: Whether the code was waiting (and not entered too often).
    func refuse(userCode: String) async throws(GatewayError) -> Bool
    /// The sign-in succeeded: the device's hand-over, as one operation. The tokens wait for the device's next poll and,
    /// where this store and the callback journal share a database (``PostgresDeviceAuthorizations`` and the outbox), the
    /// deliveries of the sign-in's `success` outcome (`entries`, claimed by this replica for their first attempt) are
    /// kept in the same change: a gateway killed between an approval and its outcome's journal would leave the device
    /// with tokens and the sinks without the sign-in. A store that keeps no journal (the memory store, whose approvals
    /// end with the process as its journal's entries do) approves only, and the dispatcher keeps the deliveries.
    /// - Returns: Whether the device can still collect the tokens (false once the code has expired or was decided
    ///   otherwise; the tokens are then dropped), and whether the deliveries were kept with them (only when it can).
    func approve(reference: String, tokens: OAuthTokens, keepingOutcome entries: [CallbackEntry]) async throws(GatewayError) -> DeviceApproval
    /// The sign-in was cancelled or failed: the device is told `access_denied`.
    func deny(reference: String) async throws(GatewayError)
    /// A poll of the token endpoint with `deviceCode` by `clientID` (RFC 8628 §3.4–3.5). Approved tokens, or those of a
    /// hand-over open for longer than ``DeviceTokenHandOver/leaseSeconds``, are taken for a hand-over; a poll that meets
    /// a younger one is told `authorization_pending`, and its poll is not noted.
    func poll(deviceCode: String, clientID: String) async throws(GatewayError) -> DevicePollAnswer
    /// The answer with the tokens was written to the device's connection, or refused to it: the authorization is
    /// forgotten, and its code is `invalid_grant` from now on.
    func handedOver(_ handOver: DeviceTokenHandOver) async throws(GatewayError)
    /// The answer with the tokens could not be written (the device's connection closed): they wait for its next poll.
    func handOverFailed(_ handOver: DeviceTokenHandOver) async throws(GatewayError)
    /// Notes that `accessToken` was handed to `clientID` (kept as its SHA-256 for `seconds`), so that revocation is
    /// confined to the caller's own tokens (RFC 7009 §2.1).
    func recordIssued(accessToken: String, to clientID: String, forSeconds seconds: Int) async throws(GatewayError)
    /// Whether `accessToken` was handed to `clientID` and has not expired.
    func wasIssued(accessToken: String, to clientID: String) async throws(GatewayError) -> Bool
}
