import Crypto
import Foundation
import HAAPI
import HAAPIGateway
import Logging
import PostgresNIO

/// The device authorizations under way (RFC 8628) in the database of `sessions.store: postgres`
/// (`haapi_gateway_device_authorizations`, schema version 4), so that a device may ask one replica for its codes and
/// poll another, and the person's pages may go to any (``DeviceAuthorizationStore``).
///
/// A row keeps the device code's SHA-256 (its key), the user code's HMAC under a key derived from each of the sessions'
/// encryption keys (HKDF-SHA256; a database reader cannot turn its 34 bits back into the code, and a rotation keeps
/// finding codes made before it), the client id, the scopes, the pace (`interval_seconds`, `last_poll_at`), the entries,
/// the state and, between approval and the end of their hand-over to a poll, the tokens sealed like a sign-in
/// (``SessionCipher``, the row's reference bound in). Every step is one statement, so the replicas agree: of two polls
/// that meet approved tokens one takes them for a hand-over (state `handing`, its lease from `last_poll_at`), whose end
/// deletes the row (``DeviceTokenHandOver``). Expiry compares against the database's clock
/// (``StorageClock``). Rows are forgotten one code lifetime after they expire (until then a poll hears `expired_token`;
/// the sessions' sweep deletes them, ``PostgresSessionStorage/sweepBookkeeping()``).
/// Statements commit durably: a database crash forgets no approval.
final class PostgresDeviceAuthorizations: DeviceAuthorizationStore {
    static let table = PostgresSchema.deviceAuthorizationsTable

    let database: PostgresDatabase
    let logger: Logger
    private let settings: SettingsSource<DeviceSettings>
    /// The keys of the user code HMACs, one per session encryption key, the sealing key's first.
    private let userCodeKeys: [Data]
    /// The callback outbox of the same database, which an approval adds its sign-in's outcome to in the same statement
    /// (``approve(reference:tokens:keepingOutcome:)``); nil: approvals add nothing (the dispatcher keeps the outcome).
    private let outbox: CallbackOutbox?

    init(database: PostgresDatabase, settings: SettingsSource<DeviceSettings>, outbox: CallbackOutbox? = nil, logger: Logger) {
        self.database = database
        self.logger = logger
        self.settings = settings
        self.outbox = outbox
        self.userCodeKeys = HMACToken.keys(for: "device user codes", derivedFrom: database.cipher)
    }

    func create(
        client: DeviceClient,
        scopes: [String]?,
        address: String?
    ) async throws(GatewayError) -> (deviceCode: String, authorization: DeviceAuthorization)? {
        let settings = settings.current
        // A user code that happens to be waiting already (1 in 10¹⁰ per pair) is drawn again.
        for _ in 0..<5 {
            let authorization = DeviceAuthorization(
                reference: SecureToken.make(byteCount: 12),
                client: client,
                userCode: UserCode.make(),
                scopes: scopes
            )
            let deviceCode = DeviceCode.make()
            let hashes = userCodeHashes(authorization.userCode)
            var bindings = clockBindings()
            bindings.append(DeviceCode.hash(deviceCode))
            bindings.append(authorization.reference)
            bindings.append(hashes[0])
            bindings.append(client.id)
            bindings.append(scopes?.joined(separator: " "))
            bindings.append(Int32(settings.codeLifetimeSeconds))
            bindings.append(Int32(settings.pollIntervalSeconds))
            bindings.append(Int64(settings.maximumPendingAuthorizations))
            bindings.append(hashes)
            bindings.append(address)
            let insert = statement(
                """
                INSERT INTO haapi_gateway_device_authorizations
                    (device_code_hash, reference, user_code_hash, client_id, scopes, created_at, expires_at, forget_at, interval_seconds, state, address)
                SELECT $2, $3, $4, $5, $6, \(Self.now), \(Self.now) + make_interval(secs => $7), \(Self.now) + make_interval(secs => 2 * $7), $8, 'waiting', $11
                WHERE (SELECT count(*) FROM haapi_gateway_device_authorizations WHERE forget_at > \(Self.now)) < $9
                    AND NOT EXISTS (SELECT 1 FROM haapi_gateway_device_authorizations WHERE user_code_hash = ANY($10))
                ON CONFLICT DO NOTHING
                RETURNING 1
                """,
                bindings
            )
            if try await run("start a device authorization", .refuseAtOnce, insert, { try await $0.decode(Int32.self).first { _ in true } }) != nil {
                return (deviceCode, authorization)
            }
            let count = statement("SELECT count(*) FROM haapi_gateway_device_authorizations WHERE forget_at > \(Self.now)")
            let waiting = try await run("count the device authorizations", .refuseAtOnce, count) {
                try await $0.decode(Int64.self).first { _ in true } ?? 0
            }
            if waiting >= settings.maximumPendingAuthorizations { return nil }
        }
        throw Self.unavailable
    }

    func enter(userCode: String) async throws(GatewayError) -> UserCodeEntry {
        var bindings = clockBindings()
        bindings.append(userCodeHashes(userCode))
        bindings.append(Int32(settings.current.maximumEntriesPerCode))
        let count = statement(
            """
            UPDATE haapi_gateway_device_authorizations SET entries = entries + 1
            WHERE user_code_hash = ANY($2) AND expires_at > \(Self.now) AND state = 'waiting' AND entries < $3
            RETURNING reference, client_id, scopes
            """,
            bindings
        )
        if let found = try await run(
            "count an entered user code",
            .refuseAtOnce,
            count,
            { try await $0.decode((String, String, String?).self).first { _ in true } }
        ) {
            guard let authorization = authorization(found, userCode: userCode) else { return .unknown }
            return .found(authorization)
        }
        return try await knows(userCode: userCode) ? .alreadyUsed : .unknown
    }

    func beginSignIn(userCode: String) async throws(GatewayError) -> DeviceAuthorization? {
        try await decide(userCode: userCode, becoming: "signing_in", operation: "begin a device's sign-in").flatMap {
            authorization($0, userCode: userCode)
        }
    }

    func waiting(from address: String) async throws(GatewayError) -> Int {
        var bindings = clockBindings()
        bindings.append(address)
        let count = statement(
            "SELECT count(*) FROM haapi_gateway_device_authorizations WHERE address = $2 AND state = 'waiting' AND expires_at > \(Self.now)",
            bindings
        )
        return Int(
            try await run("count an address's waiting device authorizations", .refuseAtOnce, count) {
                try await $0.decode(Int64.self).first { _ in true } ?? 0
            }
        )
    }

    func knows(userCode: String) async throws(GatewayError) -> Bool {
        var bindings = clockBindings()
        bindings.append(userCodeHashes(userCode))
        let lookup = statement(
            "SELECT 1 FROM haapi_gateway_device_authorizations WHERE user_code_hash = ANY($2) AND expires_at > \(Self.now)",
            bindings
        )
        return try await run("look up a user code", .refuseAtOnce, lookup, { try await $0.decode(Int32.self).first { _ in true } }) != nil
    }

    func reopen(reference: String) async throws(GatewayError) {
        try await change(
            reference,
            "UPDATE haapi_gateway_device_authorizations SET state = 'waiting' WHERE reference = $1 AND state = 'signing_in'",
            "reopen a device authorization"
        )
    }

    func refuse(userCode: String) async throws(GatewayError) -> Bool {
        try await decide(userCode: userCode, becoming: "denied", operation: "refuse a device") != nil
    }

    /// An approval alone: the tokens wait for the device's poll.
    func approve(reference: String, tokens: OAuthTokens) async throws(GatewayError) -> Bool {
        var bindings = clockBindings()
        bindings.append(reference)
        bindings.append(ByteBuffer(bytes: try sealed(tokens, reference: reference)))
        let approve = statement(Self.approval(reference: "$2", tokens: "$3", now: Self.now), bindings)
        return try await run("hand tokens to a device", .askAnyway, approve, { try await $0.decode(Int32.self).first { _ in true } }) != nil
    }

    /// With the outbox, the approval and the outcome's deliveries (claimed by this replica for their first attempt, as
    /// the dispatcher's journal claims them) are one statement (``PostgresOutbox/approveDevice(reference:sealedTokens:adding:claimingFor:ending:)``).
    func approve(reference: String, tokens: OAuthTokens, keepingOutcome entries: [CallbackEntry]) async throws(GatewayError) -> DeviceApproval {
        guard let outbox, let first = entries.first, let signIn = first.delivery.signIn, first.delivery.outcome == "success" else {
            return DeviceApproval(approved: try await approve(reference: reference, tokens: tokens), outcomeKept: false)
        }
        let sealedTokens = try sealed(tokens, reference: reference)
        let (approved, _) = try await attempt("hand tokens to a device", .askAnyway) { () async throws(PostgresStorageError) in
            try await outbox.table.approveDevice(
                reference: reference,
                sealedTokens: sealedTokens,
                adding: entries.map(\.outboxDelivery),
                claimingFor: outbox.attemptLease,
                ending: SignInOutcomeNote(signIn: signIn, outcome: first.delivery.outcome)
            )
        }
        return DeviceApproval(approved: approved, outcomeKept: approved)
    }

    /// An approval, a statement of its own or part of one (``PostgresOutbox/approveDevice(reference:sealedTokens:adding:claimingFor:ending:)``):
    /// the tokens (sealed for the row) wait for the device's poll when its sign-in is under way and its code has not
    /// expired; it answers a row when it was made. The arguments are the SQL of the reference, the tokens and the time.
    static func approval(reference: String, tokens: String, now: String) -> String {
        """
        UPDATE \(table) SET state = 'approved', tokens = \(tokens)
        WHERE reference = \(reference) AND state = 'signing_in' AND expires_at > \(now)
        RETURNING 1
        """
    }

    /// The tokens' document, sealed for the row `reference`.
    private func sealed(_ tokens: OAuthTokens, reference: String) throws(GatewayError) -> [UInt8] {
        guard let document = try? JSONEncoder().encode(DeviceTokensDocument(tokens: tokens)) else {
            throw GatewayError(.internalError, "a device's tokens could not be encoded for the database")
        }
        return database.cipher.seal(Array(document), table: Self.table, rowID: reference)
    }

    func deny(reference: String) async throws(GatewayError) {
        try await change(
            reference,
            """
            UPDATE haapi_gateway_device_authorizations SET state = 'denied', tokens = NULL
            WHERE reference = $1 AND state NOT IN ('approved', 'handing')
            """,
            "deny a device"
        )
    }

    func poll(deviceCode: String, clientID: String) async throws(GatewayError) -> DevicePollAnswer {
        // One statement whatever the state (``DevicePollStatement``): a pending poll costs the database one round trip.
        let poll = DevicePollStatement(
            deviceCodeHash: DeviceCode.hash(deviceCode),
            clientID: clientID,
            leaseSeconds: Int32(DeviceTokenHandOver.leaseSeconds),
            now: database.clock.now()
        )
        guard let row = try await run("poll for a device's tokens", .refuseAtOnce, { client in try await client.execute(poll).first { _ in true } })
        else {
            return .invalid
        }
        guard row.action != "note" else {
            if !row.live { return .expired }
            return row.slowed ? .slowDown : .pending
        }
        // Taken for a hand-over, or taken out: a refusal, or tokens past `expires_in`.
        guard row.state != "denied", let sealed = row.sealed else { return .denied }
        guard row.live else { return .expired }
        let answer = tokens(sealed, reference: row.reference)
        if case .tokens = answer { return answer }
        try await endHandOver(reference: row.reference)  // tokens that do not open are dropped: the device starts again
        return answer
    }

    func handedOver(_ handOver: DeviceTokenHandOver) async throws(GatewayError) {
        try await endHandOver(reference: handOver.reference)
    }

    /// Forgets the authorization `reference` whose tokens a poll took for a hand-over.
    private func endHandOver(reference: String) async throws(GatewayError) {
        try await change(
            reference,
            "DELETE FROM haapi_gateway_device_authorizations WHERE reference = $1 AND state = 'handing'",
            "end a hand-over of a device's tokens"
        )
    }

    func handOverFailed(_ handOver: DeviceTokenHandOver) async throws(GatewayError) {
        try await change(
            handOver.reference,
            "UPDATE haapi_gateway_device_authorizations SET state = 'approved' WHERE reference = $1 AND state = 'handing'",
            "give a device's tokens back after a failed hand-over"
        )
    }

    func recordIssued(accessToken: String, to clientID: String, forSeconds seconds: Int) async throws(GatewayError) {
        var bindings = clockBindings()
        bindings.append(DeviceCode.hash(accessToken))
        bindings.append(clientID)
        bindings.append(Int32(clamping: seconds))
        let record = statement(
            """
            INSERT INTO haapi_gateway_device_tokens (token_hash, client_id, expires_at)
            VALUES ($2, $3, \(Self.now) + make_interval(secs => $4))
            ON CONFLICT (token_hash) DO UPDATE SET client_id = EXCLUDED.client_id, expires_at = EXCLUDED.expires_at
            """,
            bindings
        )
        try await run("note a token handed to a device", .askAnyway, record) { _ = try await $0.collect() }
    }

    func wasIssued(accessToken: String, to clientID: String) async throws(GatewayError) -> Bool {
        var bindings = clockBindings()
        bindings.append(DeviceCode.hash(accessToken))
        bindings.append(clientID)
        let lookup = statement(
            "SELECT 1 FROM haapi_gateway_device_tokens WHERE token_hash = $2 AND client_id = $3 AND expires_at > \(Self.now)",
            bindings
        )
        return try await run("look up a token handed to a device", .refuseAtOnce, lookup, { try await $0.decode(Int32.self).first { _ in true } })
            != nil
    }

    // MARK: - Private

    /// The person's decision on a waiting code (confirmed: `signing_in`, refused: `denied`), counted as an entry and
    /// refused past `devices.maximumEntriesPerCode`; the row (reference, client id, scopes), or nil when the code was
    /// not waiting.
    private func decide(userCode: String, becoming state: String, operation: String) async throws(GatewayError) -> (String, String, String?)? {
        var bindings = clockBindings()
        bindings.append(userCodeHashes(userCode))
        bindings.append(Int32(settings.current.maximumEntriesPerCode))
        bindings.append(state)
        let decide = statement(
            """
            UPDATE haapi_gateway_device_authorizations SET state = $4, entries = entries + 1
            WHERE user_code_hash = ANY($2) AND expires_at > \(Self.now) AND state = 'waiting' AND entries < $3
            RETURNING reference, client_id, scopes
            """,
            bindings
        )
        return try await run(operation, .refuseAtOnce, decide) { try await $0.decode((String, String, String?).self).first { _ in true } }
    }

    /// Runs `sql`, a change to the authorization `reference` (its `$1`), for `operation`; nothing is read back. Each
    /// (reopened for "Try again", denied, a hand-over ended or given back) must land: asked while the database is down.
    private func change(_ reference: String, _ sql: String, _ operation: String) async throws(GatewayError) {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(reference)
        try await run(operation, .askAnyway, PostgresQuery(unsafeSQL: sql, binds: bindings)) { _ = try await $0.collect() }
    }

    /// The database's "now", or the test clock's (`$1` of every statement).
    private static let now = "COALESCE($1::timestamptz, now())"

    /// Bindings that start with the clock's reading (`$1`); a statement's own values follow from `$2` on.
    private func clockBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 10)
        database.appendNow(to: &bindings)
        return bindings
    }

    /// A statement and its bindings (from ``clockBindings()``; by default only the clock).
    private func statement(_ sql: String, _ bindings: PostgresBindings? = nil) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: bindings ?? clockBindings())
    }

    /// The tokens of a collected row; `denied` when they do not open or decode (the device must start again).
    private func tokens(_ sealed: ByteBuffer, reference: String) -> DevicePollAnswer {
        switch database.cipher.open(Array(buffer: sealed), table: Self.table, rowID: reference) {
        case .success(let bytes):
            guard let document = try? JSONDecoder().decode(DeviceTokensDocument.self, from: Data(bytes)), let tokens = document.tokens() else {
                logger.warning("a device's tokens in the database do not decode; the device is told access_denied")
                return .denied
            }
            return .tokens(DeviceTokenHandOver(tokens: tokens, reference: reference))
        case .failure(let error):
            logger.warning("a device's tokens in the database do not open; the device is told access_denied", metadata: ["error": "\(error)"])
            return .denied
        }
    }

    /// The user code's HMAC (hex) under each key, the sealing key's first.
    private func userCodeHashes(_ userCode: String) -> [String] {
        userCodeKeys.map { key in
            HMAC<SHA256>.authenticationCode(for: Data(userCode.utf8), using: SymmetricKey(data: key)).map { String(format: "%02x", $0) }.joined()
        }
    }

    /// The authorization of a row (reference, client id, scopes); nil when its client is no longer registered.
    private func authorization(_ row: (String, String, String?), userCode: String) -> DeviceAuthorization? {
        guard let client = settings.current.client(id: row.1) else { return nil }
        return DeviceAuthorization(
            reference: row.0,
            client: client,
            userCode: userCode,
            scopes: row.2.map { $0.split(separator: " ").map(String.init) }
        )
    }

    /// Runs one statement and reads its rows, as `whileDown` says; a failure is logged naming `operation` and becomes
    /// "try again" (503).
    @discardableResult
    private func run<Value: Sendable>(
        _ operation: String,
        _ whileDown: WhileDatabaseDown,
        _ query: PostgresQuery,
        _ read: @escaping @Sendable (PostgresRowSequence) async throws -> Value
    ) async throws(GatewayError) -> Value {
        try await run(operation, whileDown) { client in try await read(try await client.query(query)) }
    }

    /// Runs `body` with the pool, as `whileDown` says; a failure is logged naming `operation` and becomes "try again" (503).
    private func run<Value: Sendable>(
        _ operation: String,
        _ whileDown: WhileDatabaseDown,
        _ body: @escaping @Sendable (PostgresClient) async throws -> Value
    ) async throws(GatewayError) -> Value {
        try await attempt(operation, whileDown) { () async throws(PostgresStorageError) -> Value in try await database.perform(operation, body) }
    }

    /// Does `work` with the database, as `whileDown` says (``PostgresDatabase/storeCall(_:whileDown:refusal:logger:failure:_:)``):
    /// a person's page and a device's request are refused at once while the database cannot serve; what must land (a
    /// device's tokens, the end of their hand-over) is asked anyway. A failure is logged naming `operation` and becomes
    /// "try again" (503).
    private func attempt<Value>(
        _ operation: String,
        _ whileDown: WhileDatabaseDown,
        _ work: () async throws(PostgresStorageError) -> Value
    ) async throws(GatewayError) -> Value {
        try await database.storeCall(
            operation,
            whileDown: whileDown,
            refusal: Self.unavailable,
            logger: logger,
            failure: "device database failed",
            work
        )
    }

    private static let unavailable = GatewayError(.storeUnavailable, .sessionStoreUnavailable).retrying(after: 5)
}
