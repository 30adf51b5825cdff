import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    /// Device authorizations (RFC 8628) and used start links in PostgreSQL, as two replicas see them: two handles on one
    /// database, each with its own pool.
    @Suite("Device authorizations and start links shared by replicas through PostgreSQL")
    struct Devices {
        let key = SessionEncryptionKey.random()
        static let client = DeviceClient(id: "build-host", name: "Build host 3", secret: "build-host-secret-0123456789")

        static func settings(lifetime: Int = 600, interval: Int = 5, entries: Int = 3, pending: Int = 10_000) -> DeviceSettings {
            var settings = DeviceSettings()
            settings.enabled = true
            settings.clients = [client, DeviceClient(id: "other", name: "Other")]
            settings.codeLifetimeSeconds = lifetime
            settings.pollIntervalSeconds = interval
            settings.maximumEntriesPerCode = entries
            settings.maximumPendingAuthorizations = pending
            return settings
        }

        static let tokens = OAuthTokens(
            accessToken: "canary-access-token-6b1f",
            expiresIn: 300,
            refreshToken: "canary-refresh-token-93ad",
            tokenType: "DPoP",
            scope: "openid",
            idToken: "canary-id-token-1c2e",
            dpopKey: DPoPKey()
        )

        /// Two replicas' stores on one fresh database (the second under `secondKeys` when given), for the time of `body`.
        func withReplicas(
            _ database: StorageTestDatabase,
            settings: DeviceSettings = Devices.settings(),
            secondKeys: [SessionEncryptionKey]? = nil,
            _ body: (PostgresDeviceAuthorizations, PostgresDeviceAuthorizations) async throws -> Void
        ) async throws {
            try await database.withDatabase(keys: [key]) { first in
                try await database.withDatabase(keys: secondKeys ?? [key]) { second in
                    try await body(
                        PostgresDeviceAuthorizations(database: first, settings: .fixed(settings), logger: StorageTestDatabase.silent),
                        PostgresDeviceAuthorizations(database: second, settings: .fixed(settings), logger: StorageTestDatabase.silent)
                    )
                }
            }
        }

        @Test(
            "asked on one replica, entered, confirmed and approved on the other, polled by both at once: the tokens (with their DPoP key) go to exactly one poll, the other waits, and once the hand-over ends the code is spent (20 races)"
        )
        func tokensAreHandedOverOnceAcrossReplicas() async throws {
            let database = try await StorageTestDatabase.make()
            try await withReplicas(database) { a, b in
                for _ in 0..<20 {
                    let (deviceCode, authorization) = try #require(try await a.create(client: Self.client, scopes: ["openid"]))
                    #expect(try await b.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending)
                    #expect(try await b.enter(userCode: authorization.userCode) == .found(authorization))
                    #expect(try await a.beginSignIn(userCode: authorization.userCode) == authorization)
                    #expect(try await b.beginSignIn(userCode: authorization.userCode) == nil, "one browser starts the sign-in")
                    #expect(try await b.approve(reference: authorization.reference, tokens: Self.tokens))
                    async let first = a.poll(deviceCode: deviceCode, clientID: Self.client.id)
                    async let second = b.poll(deviceCode: deviceCode, clientID: Self.client.id)
                    let answers = try await [first, second]
                    let handed = answers.compactMap { answer -> DeviceTokenHandOver? in
                        if case .tokens(let handOver) = answer { handOver } else { nil }
                    }
                    #expect(handed.map(\.tokens) == [Self.tokens], "\(answers)")
                    #expect(handed.first?.tokens.dpopKey?.publicJWK == Self.tokens.dpopKey?.publicJWK)
                    #expect(answers.contains(.pending), "the other poll waits while the hand-over is under way")
                    try await b.handedOver(try #require(handed.first))
                    #expect(try await a.poll(deviceCode: deviceCode, clientID: Self.client.id) == .invalid, "the code is spent")
                }
                #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_device_authorizations") == "0", "collected rows are gone")
            }
        }

        @Test(
            "the pace and the end across replicas: a poll sooner than the interval on the other replica is slow_down (+5 s); another client's poll is invalid_grant; past expires_in expired_token; a lifetime later invalid_grant"
        )
        func paceAndExpiry() async throws {
            let database = try await StorageTestDatabase.make()
            try await withReplicas(database, settings: Self.settings(lifetime: 60, interval: 5)) { a, b in
                let (deviceCode, authorization) = try #require(try await a.create(client: Self.client, scopes: nil))
                #expect(authorization.scopes == nil)
                #expect(try await a.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending)
                database.clock.advance(.seconds(2))
                #expect(try await b.poll(deviceCode: deviceCode, clientID: Self.client.id) == .slowDown)
                database.clock.advance(.seconds(6))
                #expect(try await a.poll(deviceCode: deviceCode, clientID: Self.client.id) == .slowDown, "the interval is 10 s now, then 15 s")
                database.clock.advance(.seconds(16))
                #expect(try await b.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending)
                #expect(try await b.poll(deviceCode: deviceCode, clientID: "other") == .invalid)
                #expect(try await a.poll(deviceCode: "not-a-device-code", clientID: Self.client.id) == .invalid)
                database.clock.advance(.seconds(40))
                #expect(try await a.poll(deviceCode: deviceCode, clientID: Self.client.id) == .expired)
                #expect(try await b.enter(userCode: authorization.userCode) == .unknown, "an expired code is a wrong code")
                #expect(try await b.beginSignIn(userCode: authorization.userCode) == nil)
                database.clock.advance(.seconds(61))
                #expect(try await a.poll(deviceCode: deviceCode, clientID: Self.client.id) == .invalid, "a lifetime past its expiry")
                try await PostgresSessionStorage(database: a.database).sweepBookkeeping()
                #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_device_authorizations") == "0", "and swept")
            }
        }

        @Test(
            "entries are counted across replicas up to maximumEntriesPerCode, confirmations and refusals among them; a confirmed code cannot be entered or refused; a refused one tells the device access_denied once; reopen lets it wait again"
        )
        func entriesDecisionsAndReopen() async throws {
            let database = try await StorageTestDatabase.make()
            try await withReplicas(database, settings: Self.settings(entries: 3)) { a, b in
                let (deviceCode, authorization) = try #require(try await a.create(client: Self.client, scopes: nil))
                #expect(try await a.enter(userCode: authorization.userCode) == .found(authorization))
                #expect(try await b.enter(userCode: authorization.userCode) == .found(authorization))
                #expect(try await a.enter(userCode: authorization.userCode) == .found(authorization))
                #expect(try await b.enter(userCode: authorization.userCode) == .alreadyUsed, "the fourth entry")
                #expect(try await b.enter(userCode: "BCDFGHJK") == .unknown)
                // Confirming and refusing name the code too: past the entries they start and refuse nothing (#31).
                #expect(try await a.beginSignIn(userCode: authorization.userCode) == nil)
                #expect(try await b.refuse(userCode: authorization.userCode) == false)
                #expect(try await a.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending)

                let (decidedCode, decided) = try #require(try await b.create(client: Self.client, scopes: nil))
                #expect(try await a.beginSignIn(userCode: decided.userCode) == decided)
                #expect(try await b.refuse(userCode: decided.userCode) == false, "signing in already")
                try await b.reopen(reference: decided.reference)
                #expect(try await a.refuse(userCode: decided.userCode), "waiting again after reopen")
                #expect(try await b.approve(reference: decided.reference, tokens: Self.tokens) == false, "a refused code takes no tokens")
                #expect(try await b.poll(deviceCode: decidedCode, clientID: Self.client.id) == .denied)
                #expect(try await a.poll(deviceCode: decidedCode, clientID: Self.client.id) == .invalid)

                // Approved in time, polled after expires_in: expired_token, never the tokens (#31).
                let (lateCode, late) = try #require(try await a.create(client: Self.client, scopes: nil))
                #expect(try await b.beginSignIn(userCode: late.userCode) == late)
                #expect(try await a.approve(reference: late.reference, tokens: Self.tokens))
                database.clock.advance(.seconds(601))
                #expect(try await b.poll(deviceCode: lateCode, clientID: Self.client.id) == .expired)

                let (secondCode, second) = try #require(try await b.create(client: Self.client, scopes: nil))
                #expect(try await a.beginSignIn(userCode: second.userCode) == second)
                try await a.deny(reference: second.reference)
                #expect(try await b.poll(deviceCode: secondCode, clientID: Self.client.id) == .denied, "a failed sign-in denies")
            }
        }

        @Test(
            "a hand-over whose end is never noted (its replica killed after the poll) offers the same tokens again on the other replica past its 2 s lease, never sooner; a failed answer gives them back at once; a failed sign-in cannot deny them; past expires_in expired_token"
        )
        func aLostHandOverIsOfferedAgain() async throws {
            let database = try await StorageTestDatabase.make()
            try await withReplicas(database, settings: Self.settings(lifetime: 60, interval: 5)) { a, b in
                let (deviceCode, authorization) = try #require(try await a.create(client: Self.client, scopes: nil))
                #expect(try await b.beginSignIn(userCode: authorization.userCode) == authorization)
                #expect(try await b.approve(reference: authorization.reference, tokens: Self.tokens))
                let handOver = DeviceTokenHandOver(tokens: Self.tokens, reference: authorization.reference)
                #expect(try await a.poll(deviceCode: deviceCode, clientID: Self.client.id) == .tokens(handOver), "A takes them, then is killed")
                try await b.deny(reference: authorization.reference)
                database.clock.advance(.seconds(1))
                #expect(try await b.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending, "within the lease")
                #expect(try await b.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending, "a poll within the lease does not renew it")
                database.clock.advance(.seconds(1))
                #expect(try await b.poll(deviceCode: deviceCode, clientID: Self.client.id) == .tokens(handOver), "the same tokens, past the lease")
                try await b.handOverFailed(handOver)
                #expect(try await a.poll(deviceCode: deviceCode, clientID: Self.client.id) == .tokens(handOver), "given back at once")
                try await a.handedOver(handOver)
                #expect(try await b.poll(deviceCode: deviceCode, clientID: Self.client.id) == .invalid)
                #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_device_authorizations") == "0")

                let (lateCode, late) = try #require(try await b.create(client: Self.client, scopes: nil))
                #expect(try await a.beginSignIn(userCode: late.userCode) == late)
                #expect(try await a.approve(reference: late.reference, tokens: Self.tokens))
                #expect(
                    try await b.poll(deviceCode: lateCode, clientID: Self.client.id)
                        == .tokens(DeviceTokenHandOver(tokens: Self.tokens, reference: late.reference))
                )
                database.clock.advance(.seconds(61))
                #expect(try await a.poll(deviceCode: lateCode, clientID: Self.client.id) == .expired, "an open hand-over past expires_in")
                #expect(try await a.poll(deviceCode: lateCode, clientID: Self.client.id) == .invalid)
            }
        }

        @Test("the waiting authorizations of an address are counted for the replicas together; a confirmed one no longer waits")
        func waitingPerAddress() async throws {
            let database = try await StorageTestDatabase.make()
            try await withReplicas(database) { a, b in
                _ = try await a.create(client: Self.client, scopes: nil, address: "198.51.100.7")
                let (_, second) = try #require(try await b.create(client: Self.client, scopes: nil, address: "198.51.100.7"))
                _ = try await b.create(client: Self.client, scopes: nil, address: "203.0.113.5")
                #expect(try await a.waiting(from: "198.51.100.7") == 2)
                #expect(try await b.beginSignIn(userCode: second.userCode) == second)
                #expect(try await a.waiting(from: "198.51.100.7") == 1)
                #expect(try await a.waiting(from: "203.0.113.5") == 1)
            }
        }

        @Test("devices.maximumPendingAuthorizations holds for the replicas together; a device is asked to come back")
        func capAcrossReplicas() async throws {
            let database = try await StorageTestDatabase.make()
            try await withReplicas(database, settings: Self.settings(pending: 3)) { a, b in
                var answered: [Bool] = []
                for store in [a, b, a, b, a] {
                    answered.append(try await store.create(client: Self.client, scopes: nil) != nil)
                }
                #expect(answered == [true, true, true, false, false])
                #expect(try await b.waiting(from: "198.51.100.7") == 0)
            }
        }

        @Test(
            "a pg_dump holds no device code, user code or token: codes as hashes, tokens sealed; after a key rotation a replica finds the code and opens the tokens made under the old key"
        )
        func nothingInTheClearAndKeysRotate() async throws {
            let database = try await StorageTestDatabase.make()
            let newKey = SessionEncryptionKey.random()
            try await withReplicas(database, secondKeys: [newKey, key]) { old, rotated in
                let (deviceCode, authorization) = try #require(try await old.create(client: Self.client, scopes: ["openid"]))
                #expect(try await old.beginSignIn(userCode: authorization.userCode) == authorization)
                #expect(try await old.approve(reference: authorization.reference, tokens: Self.tokens))
                let dump = try await database.server.dump(database: database.name)
                for secret in [deviceCode, authorization.userCode, UserCode.display(authorization.userCode), "canary-", "PRIVATE KEY"] {
                    #expect(!dump.contains(secret), "\(secret) is in the dump")
                }
                #expect(dump.contains(DeviceCode.hash(deviceCode)), "the device code's SHA-256 is its key")
                #expect(try await rotated.enter(userCode: authorization.userCode) == .alreadyUsed, "found under the old key's HMAC")
                #expect(
                    try await rotated.poll(deviceCode: deviceCode, clientID: Self.client.id)
                        == .tokens(DeviceTokenHandOver(tokens: Self.tokens, reference: authorization.reference))
                )

                let (_, fresh) = try #require(try await rotated.create(client: Self.client, scopes: nil))
                #expect(try await old.enter(userCode: fresh.userCode) == .unknown, "a replica without the new key cannot find codes made under it")
                #expect(try await rotated.enter(userCode: fresh.userCode) == .found(fresh))
            }
        }

        @Test(
            "wrong user codes are counted for the replicas together: an address's bound and everyone's, each reached by wrong codes counted on both; everyone's holds back only addresses that guessed wrong; the window slides; addresses kept only as an HMAC, swept after a day"
        )
        func wrongCodesAreCountedAcrossReplicas() async throws {
            let database = try await StorageTestDatabase.make()
            var settings = Self.settings()
            settings.maximumWrongCodesPerAddress = 3
            settings.maximumWrongCodes = 8
            settings.wrongCodeWindowSeconds = 60
            try await database.withDatabase(keys: [key]) { first in
                try await database.withDatabase(keys: [key]) { second in
                    let replicas = [first, second].map {
                        PostgresUserCodeAttemptLimiter(database: $0, settings: .fixed(settings), logger: StorageTestDatabase.silent)
                    }
                    let guesser = "198.51.100.1"
                    for index in 0..<3 {
                        #expect(try await replicas[index % 2].retryAfter(address: guesser) == nil, "wrong code \(index + 1)")
                        try await replicas[index % 2].recordWrongCode(address: guesser)
                        database.clock.advance(.seconds(1))
                    }
                    // The first of the three, at 0 s, leaves the 60 s window at 60 s: 57 s from now (3 s).
                    #expect(try await replicas[1].retryAfter(address: guesser) == 57, "the address's bound, whichever replica counted")
                    #expect(try await replicas[0].retryAfter(address: guesser) == 57)
                    for address in 2...6 {
                        #expect(try await replicas[address % 2].retryAfter(address: "198.51.100.\(address)") == nil)
                        try await replicas[address % 2].recordWrongCode(address: "198.51.100.\(address)")
                    }
                    // Eight wrong codes in the window, the oldest at 0 s: everyone's bound, until it leaves.
                    #expect(try await replicas[0].retryAfter(address: "198.51.100.2") == 57, "an address that guessed wrong is held back")
                    #expect(try await replicas[1].retryAfter(address: "198.51.100.3") == 57)
                    #expect(try await replicas[1].retryAfter(address: "192.0.2.7") == nil, "an address that has not guessed keeps its try")
                    #expect(try await replicas[0].retryAfter(address: nil) == 57, "without an address every entry is a guesser's")
                    try await replicas[0].recordWrongCode(address: nil)
                    database.clock.advance(.seconds(57))
                    // At 60 s the first has left, and the one without an address counts for everyone: eight until 61 s.
                    #expect(try await replicas[0].retryAfter(address: "198.51.100.2") == 1, "a wrong code without an address counts")
                    database.clock.advance(.seconds(1))
                    #expect(try await replicas[0].retryAfter(address: "198.51.100.2") == nil, "the window moved on")
                    #expect(try await replicas[1].retryAfter(address: guesser) == nil, "one of the address's three is left")
                    try await replicas[1].recordWrongCode(address: guesser)
                    #expect(try await replicas[0].retryAfter(address: guesser) == 1, "everyone's eight again; the one at 2 s leaves at 62 s")

                    let dump = try await database.server.dump(database: database.name)
                    #expect(!dump.contains("198.51.100."), "no address in the clear")
                    #expect(
                        try await database.sql("SELECT count(*) FROM haapi_gateway_wrong_user_codes WHERE address_hash IS NOT NULL") == "9"
                    )
                    database.clock.advance(.seconds(86_400))
                    try await PostgresSessionStorage(database: first).sweepBookkeeping()
                    #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_wrong_user_codes") == "0", "swept after a day")
                }
            }
        }

        @Test(
            "wrong user codes that cannot be counted refuse the page with try again (503, Retry-After 5), never let a guess through uncounted: their table gone, or the database unreachable"
        )
        func wrongCodesFailClosed() async throws {
            let database = try await StorageTestDatabase.make()
            let refusal = GatewayError(.storeUnavailable, .sessionStoreUnavailable).retrying(after: 5)
            func expectRefusal(_ limiter: PostgresUserCodeAttemptLimiter, _ comment: Comment) async {
                for address in ["198.51.100.1", nil] {
                    do {
                        let wait = try await limiter.retryAfter(address: address)
                        Issue.record("checked without the database: \(String(describing: wait)); \(comment)")
                    } catch {
                        #expect(error.code == refusal.code && error.text == refusal.text && error.retryAfterSeconds == 5, "\(error); \(comment)")
                    }
                    do {
                        try await limiter.recordWrongCode(address: address)
                        Issue.record("counted without the database; \(comment)")
                    } catch {
                        #expect(error.code == refusal.code && error.retryAfterSeconds == 5, "\(error); \(comment)")
                    }
                }
            }
            try await database.withDatabase(keys: [key]) { handle in
                try await database.sql("DROP TABLE haapi_gateway_wrong_user_codes")
                let limiter = PostgresUserCodeAttemptLimiter(database: handle, settings: .fixed(Self.settings()), logger: StorageTestDatabase.silent)
                await expectRefusal(limiter, "table gone")
            }
            // A port nothing listens on: every operation fails within its limit.
            var options = PostgresDatabase.Options()
            options.operationTimeout = .seconds(1)
            options.connectTimeout = .seconds(1)
            options.maximumConnections = 2
            let unreachable = PostgresDatabase(
                url: try PostgresURL.parse("postgres://gateway:password@127.0.0.1:1/nowhere").get(),
                cipher: try #require(SessionCipher(keys: [key])),
                options: options,
                logger: StorageTestDatabase.silent
            )
            let pool = Task { await unreachable.client.run() }
            await expectRefusal(
                PostgresUserCodeAttemptLimiter(database: unreachable, settings: .fixed(Self.settings()), logger: StorageTestDatabase.silent),
                "unreachable"
            )
            pool.cancel()
            _ = await pool.result
        }

        @Test("a start link is used once across replicas: of 20 redeeming it at once on two handles, one succeeds")
        func startLinksAreUsedOnceAcrossReplicas() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { first in
                try await database.withDatabase(keys: [key]) { second in
                    let ledgers = [first, second].map { PostgresStartLinkLedger(database: $0, logger: StorageTestDatabase.silent) }
                    let expiry = Date().addingTimeInterval(300)
                    let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                        for index in 0..<20 {
                            group.addTask { try await ledgers[index % 2].use(signature: "abc123", expiry: expiry, now: Date()) }
                        }
                        return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                    }
                    #expect(wins == 1)
                    #expect(try await ledgers[1].use(signature: "another", expiry: expiry, now: Date()))
                    let dump = try await database.server.dump(database: database.name)
                    #expect(!dump.contains("abc123"), "only the signature's SHA-256 is kept")
                }
            }
        }

        @Test(
            "two gateways: a device asks replica A, the person's pages alternate A and B, the device polls B and gets the tokens once, then refreshes on A; a start link used on A is refused on B"
        )
        func aDeviceAcrossGatewayReplicas() async throws {
            try await SharedReplicas.run(
                keys: [key],
                configure: {
                    TestDevice.configure(&$0)
                    StartLinkEndToEndTests.configure(&$0)
                }
            ) { replicas in
                try await TestBrowser.using(replicas.urls[0]) { onA in
                    try await TestBrowser.using(replicas.urls[1]) { onB in
                        let deviceA = TestDevice(browser: onA), deviceB = TestDevice(browser: onB)
                        let authorization = try await deviceA.authorize(scope: "openid profile")
                        let deviceCode = try #require(authorization["device_code"] as? String)
                        #expect(try await deviceB.poll(deviceCode).json["error"] as? String == "authorization_pending")
                        try await replicas.browser().closing { person in
                            let confirm = try await person.enterDeviceCode(
                                completeURI: try #require(authorization["verification_uri_complete"] as? String)
                            )
                            #expect(confirm.html.contains("Build host 3 is asking to sign in"), "\(confirm.html)")
                            let done = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
                            #expect(done.html.contains("You can go back to Build host 3"), "\(done.html)")
                            #expect(Set(person.served) == Set(replicas.urls), "both replicas served the person")
                        }
                        let tokens = try await deviceB.poll(deviceCode)
                        #expect(tokens.status == 200, "\(tokens.page.html)")
                        #expect(try await deviceA.pollAfterHandOver(deviceCode).json["error"] as? String == "invalid_grant", "handed over once")
                        let refreshToken = try #require(tokens.json["refresh_token"] as? String)
                        let refreshed = try await deviceA.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
                        #expect(refreshed.status == 200, "A opens what B sealed: \(refreshed.page.html)")

                        let link = StartLinkEndToEndTests.link(["ref": "kiosk 4"])
                        let linkPage = try await onA.get(link)
                        #expect(try await onA.submit(try linkPage.form(button: "Continue to sign in")).status == 200)
                        #expect(try await onB.post(link, body: "").status == 410, "used on A, refused on B")
                    }
                }
            }
        }

        @Test(
            "two gateways: wrong user codes sent to A and B in turn meet the deployment's bounds, not one per replica (an address's after devices.maximumWrongCodesPerAddress, everyone's after devices.maximumWrongCodes, an address that has not guessed keeps one try); a person with the right code still signs the device in; with the wrong codes' table gone the page is 503, never a guess uncounted"
        )
        func wrongCodesAcrossGatewayReplicas() async throws {
            try await SharedReplicas.run(
                keys: [key],
                configure: {
                    TestDevice.configure(&$0)
                    $0.devices.maximumWrongCodesPerAddress = 4
                    $0.devices.maximumWrongCodes = 10
                    $0.server.trustedProxies = [IPAddressRange("127.0.0.0/8")!]
                }
            ) { replicas in
                try await TestBrowser.using(replicas.urls[0]) { onA in
                    try await TestBrowser.using(replicas.urls[1]) { onB in
                        let replica = [onA, onB]
                        let device = TestDevice(browser: onA)
                        let authorization = try await device.authorize()
                        let userCode = try #require(authorization["user_code"] as? String)
                        let wrong = userCode == "BBBB-BBBB" ? "CCCC-CCCC" : "BBBB-BBBB"
                        /// A wrong code from `address`, entered on replica `index % 2`.
                        func guess(_ index: Int, from address: String) async throws -> TestBrowser.Page {
                            try await DeviceCodeGuardTests.enter(wrong, replica[index % 2], headers: [("X-Forwarded-For", address)])
                        }
                        func expectHeldBack(_ page: TestBrowser.Page, _ comment: Comment) {
                            #expect(page.status == 429, comment)
                            #expect(page.html.contains("Too many wrong codes were entered"), comment)
                            #expect(Int(page.header("Retry-After") ?? "").map { (1...300).contains($0) } == true, comment)
                        }

                        // One address, A and B in turn: its bound is reached after four, wherever they were counted.
                        for index in 0..<4 { #expect(try await guess(index, from: "198.51.100.1").status == 400, "wrong code \(index + 1)") }
                        expectHeldBack(try await guess(0, from: "198.51.100.1"), "the fifth, on A")
                        expectHeldBack(try await guess(1, from: "198.51.100.1"), "the fifth, on B")
                        // Six more addresses, one wrong code each, in turn: ten for everyone.
                        for address in 2...7 { #expect(try await guess(address, from: "198.51.100.\(address)").status == 400) }
                        expectHeldBack(try await guess(0, from: "198.51.100.2"), "everyone's bound, on A, for an address that guessed wrong")
                        expectHeldBack(try await guess(1, from: "198.51.100.3"), "everyone's bound, on B")
                        #expect(try await guess(1, from: "198.51.100.99").status == 400, "an address that has not guessed keeps one try")
                        expectHeldBack(try await guess(0, from: "198.51.100.99"), "then it is held back, on the other replica")

                        // The person, at an address that never guessed, with the right code: on both replicas in turn.
                        try await replicas.browser().closing { person in
                            let confirm = try await person.enterDeviceCode(
                                completeURI: try #require(authorization["verification_uri_complete"] as? String)
                            )
                            #expect(confirm.html.contains("Build host 3 is asking to sign in"), "\(confirm.html)")
                            let done = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
                            #expect(done.html.contains("You can go back to Build host 3"), "\(done.html)")
                        }
                        let deviceCode = try #require(authorization["device_code"] as? String)
                        #expect(try await TestDevice(browser: onB).poll(deviceCode).status == 200, "the device gets its tokens")
                        let wrongCodes = replicas.metrics.map { metrics in
                            ScrapedForm.matches(#"haapi_gateway_device_grant_total\{event="wrong_code"\} (\d+)"#, in: metrics.exposition())
                                .compactMap { Int($0) }.reduce(0, +)
                        }
                        #expect(wrongCodes.reduce(0, +) == 11, "4 + 6 + 1 wrong codes counted, on both replicas: \(wrongCodes)")

                        // Wrong codes that cannot be counted: the page says "try again", for a guess and a waiting code alike.
                        let waiting = try #require(try await device.authorize()["user_code"] as? String)
                        try await replicas.database.sql("DROP TABLE haapi_gateway_wrong_user_codes")
                        for (index, code) in [wrong, waiting].enumerated() {
                            let page = try await DeviceCodeGuardTests.enter(code, replica[index], headers: [("X-Forwarded-For", "203.0.113.5")])
                            #expect(page.status == 503, "\(code): \(page.html)")
                            #expect(page.header("Retry-After") == "5")
                            #expect(page.html.contains("cannot be read or saved at the moment"), "\(page.html)")
                        }
                    }
                }
            }
        }
    }
}
