import Foundation
import HAAPI
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    /// ``CallbackDispatcher`` journaling in the outbox (`sessions.store: postgres`): each replica is a dispatcher with
    /// a connection pool of its own on the suite's database, on the database's own clock, so that leases run out in
    /// real time (short ones here), or on a clock the test moves.
    @Suite("Callback delivery through the outbox")
    struct OutboxDispatcher {
        let key = SessionEncryptionKey.random()
        static let hook = "https://hooks.example.com/t"

        /// A success outcome whose tokens are canaries.
        static func canaryOutcome() -> (outcome: CompletionOutcome, canaries: [String]) {
            let canaries = ["access-canary-\(UUID().uuidString)", "refresh-canary-\(UUID().uuidString)"]
            let tokens = OAuthTokens(
                accessToken: canaries[0],
                expiresIn: 300,
                refreshToken: canaries[1],
                tokenType: "Bearer",
                scope: "openid",
                idToken: "i"
            )
            return (.success(tokens), canaries)
        }

        static func dispatcher(
            _ replica: ReplicaPool,
            owner: String,
            sinks: [any CallbackSink],
            settings: CallbackDeliverySettings,
            lease: Duration = .seconds(2),
            logs: LogCapture = LogCapture(),
            metrics: GatewayMetrics? = nil
        ) -> CallbackDispatcher {
            // These tests look at the outbox once a hand-over has returned: it waits for every attempt's result, up to
            // callbacks.handOverSeconds, not for the person's page's 3 s (callbacks.pageWaitSeconds, tested where the
            // page waits), which a loaded machine outlasted while an accepted row was still being deleted.
            var settings = settings
            settings.pageWaitSeconds = settings.handOverSeconds
            let outbox = CallbackOutbox(
                table: PostgresOutbox(database: replica.database, owner: owner),
                attemptLease: lease,
                pollInterval: .milliseconds(100)
            )
            return CallbackDispatcher(
                sinks: .fixed(sinks),
                settings: .fixed(settings),
                logger: logs.logger,
                journal: OutboxJournal(outbox, metrics: metrics, logger: logs.logger),
                metrics: metrics
            )
        }

        @Test(
            "a delivery is in the outbox, sealed and claimed, from before its first attempt; a failed one is rescheduled there; a replica killed in the middle of the next attempt holds it until its lease ends, then another delivers it exactly once"
        )
        func killedReplicaIsTakenOver() async throws {
            let database = try await StorageTestDatabase.make()
            // Both replicas read the test's clock (StorageClock), which moves only when the test moves it: a lease ends
            // when the test says so, never because a loaded machine was slow between two looks at the outbox.
            let clock = database.clock
            let (outcome, canaries) = Self.canaryOutcome()
            let first = Gate()
            let stuck = Gate()
            let flaky = ScriptedSink(name: Self.hook, steps: [.hold(first, then: .refuse), .hold(stuck, then: .refuse)])
            let a = try await ReplicaPool(database, keys: [key], clock: clock)
            let dispatcherA = Self.dispatcher(
                a,
                owner: "replica-a",
                sinks: [flaky],
                settings: CallbackDeliverySettings(retryForSeconds: 3600, initialBackoffSeconds: 0.3, handOverSeconds: 5),
                lease: .seconds(10)
            )
            await dispatcherA.start()
            let handedOver = Task { await dispatcherA.deliver(outcome) }
            // Recorded in the outbox first: on a loaded machine that insert alone has taken seconds.
            #expect(try await Self.eventually(.seconds(60)) { flaky.attemptsStarted == 1 })
            #expect(
                try await database.sql("SELECT claimed_by, attempts FROM haapi_gateway_outbox") == "replica-a|1",
                "recorded, claimed by this replica, before its first attempt: a kill now loses nothing"
            )
            first.open()
            #expect(await handedOver.value == false)
            // Rescheduled unclaimed (any replica may make the next attempt), its give-up time set, due 0.3 s on: not yet,
            // as the clock has not moved.
            let rescheduled = "SELECT claimed_by IS NULL, attempts, give_up_at IS NOT NULL, next_attempt_at > created_at FROM haapi_gateway_outbox"
            let waited = try await Self.eventually(.seconds(60)) { try await database.sql(rescheduled) == "t|1|t|t" }
            let row = try await database.sql("SELECT * FROM haapi_gateway_outbox")
            #expect(waited, "the failed attempt is rescheduled unclaimed, with a give-up time and a later due time: \(row)")
            // Once it is due, A's claimer makes the next attempt.
            clock.advance(.seconds(1))
            #expect(try await Self.eventually(.seconds(60)) { flaky.attemptsStarted == 2 }, "A's claimer makes the next attempt")
            let claim = try await database.sql(
                "SELECT claimed_by, attempts, give_up_at IS NOT NULL, extract(epoch FROM claimed_until) FROM haapi_gateway_outbox"
            ).split(separator: "|")
            #expect(claim.count == 4 && claim[0] == "replica-a" && claim[1] == "2" && claim[2] == "t", "\(claim)")
            let leaseEnds = try #require(Double(claim.last ?? ""))
            #expect(abs(leaseEnds - (clock.date.timeIntervalSince1970 + 10)) < 0.001, "claimed for its 10 s lease: \(claim)")
            // A is killed: its pool goes, and the attempt under way never reports.
            await a.kill()
            // The dump is taken with the delivery still in the outbox.
            let dump = try await database.server.dump(database: database.name)
            for canary in canaries {
                let hex = canary.utf8.map { String(format: "%02x", $0) }.joined()
                #expect(!dump.contains(canary) && !dump.lowercased().contains(hex), "the outbox holds a token in the clear")
            }
            #expect(dump.contains("hooks.example.com"), "the dump is of the outbox")

            let b = try await ReplicaPool(database, keys: [key], clock: clock)
            let receiver = ScriptedSink(name: Self.hook, steps: [])
            let dispatcherB = Self.dispatcher(
                b,
                owner: "replica-b",
                sinks: [receiver],
                settings: CallbackDeliverySettings(initialBackoffSeconds: 0.3)
            )
            await dispatcherB.start()
            // A second before A's lease ends B asks the outbox for due deliveries (one of its claims is seen to finish), and
            // leaves this one to A.
            clock.advance(.seconds(9))
            let asked = try await database.sql("SELECT now()")
            #expect(
                try await Self.eventually(.seconds(60)) { try await Self.claimsFinished(in: database, since: asked) > 0 },
                "B's claimer never asked the outbox"
            )
            #expect(
                try await database.sql("SELECT claimed_by, attempts FROM haapi_gateway_outbox") == "replica-a|2",
                "B took the delivery over before A's lease ended"
            )
            #expect(receiver.accepted.isEmpty)
            // Past the end of A's lease, B takes the delivery over.
            clock.advance(.seconds(2))
            #expect(try await Self.eventually(.seconds(60)) { receiver.accepted.count == 1 }, "B takes it over once A's lease has ended")
            #expect(receiver.accepted.first?.id == flaky.started.first, "the same delivery id")
            #expect(receiver.accepted.first?.document == (try outcome.encoded()))
            #expect(try await Self.eventually { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0" })
            try await Task.sleep(for: .seconds(1))
            #expect(receiver.accepted.count == 1, "exactly once")
            await dispatcherB.flushAtShutdown()
            await b.kill()
            stuck.open()
            await dispatcherA.flushAtShutdown()
        }

        @Test(
            "a sign-in has one outcome across replicas: A hands its success over; B, going on from the step before, is refused its error (alreadyEnded success) and its sink gets nothing; a success on B after an error on A is handed over all the same"
        )
        func oneOutcomePerSignInAcrossReplicas() async throws {
            let database = try await StorageTestDatabase.make()
            let (a, b) = (try await ReplicaPool(database, keys: [key]), try await ReplicaPool(database, keys: [key]))
            let (sinkA, sinkB) = (ScriptedSink(name: Self.hook, steps: []), ScriptedSink(name: Self.hook, steps: []))
            let logsB = LogCapture()
            let dispatcherA = Self.dispatcher(a, owner: "replica-a", sinks: [sinkA], settings: CallbackDeliverySettings())
            let dispatcherB = Self.dispatcher(b, owner: "replica-b", sinks: [sinkB], settings: CallbackDeliverySettings(), logs: logsB)
            let signIn = SignInReference(id: "sign-in-\(UUID().uuidString)")
            let tokens = OAuthTokens(accessToken: "a", expiresIn: 300, refreshToken: nil, tokenType: "Bearer", scope: nil, idToken: nil)
            #expect(await dispatcherA.hand(.success(tokens, signIn: signIn)) == .accepted)
            let failure = CompletionOutcome.Failure(error: "access_denied", errorDescription: "This step is not available")
            #expect(await dispatcherB.hand(.failure(failure, signIn: signIn)) == .alreadyEnded("success"))
            #expect(await dispatcherB.hand(.cancelled(signIn: signIn)) == .alreadyEnded("success"))
            #expect(sinkA.accepted.map(\.outcome) == ["success"])
            #expect(sinkB.accepted.isEmpty, "nothing handed over for the refused outcomes")
            #expect(logsB.text.contains("this sign-in had an outcome already; this one is not handed over"))
            #expect(await dispatcherB.pendingCount == 0)

            let other = SignInReference(id: "sign-in-\(UUID().uuidString)")
            #expect(await dispatcherA.hand(.failure(failure, signIn: other)) == .accepted)
            #expect(await dispatcherB.hand(.success(tokens, signIn: other)) == .accepted, "no token is dropped")
            #expect(sinkB.accepted.map(\.outcome) == ["success"])
            await dispatcherA.flushAtShutdown()
            await dispatcherB.flushAtShutdown()
        }

        @Test(
            "an accepted delivery leaves the outbox at once; one still refused after callbacks.retryForSeconds is given up there, logged and counted"
        )
        func deliveredAndGivenUp() async throws {
            let database = try await StorageTestDatabase.make()
            let replica = try await ReplicaPool(database, keys: [key])
            let healthy = ScriptedSink(name: Self.hook, steps: [])
            let never = ScriptedSink(name: "exec:/bin/false", steps: Array(repeating: .refuse, count: 100))
            let logs = LogCapture()
            let metrics = GatewayMetrics()
            let dispatcher = Self.dispatcher(
                replica,
                owner: "replica-a",
                sinks: [healthy, never],
                settings: CallbackDeliverySettings(retryForSeconds: 3, initialBackoffSeconds: 0.2, handOverSeconds: 5),
                logs: logs,
                metrics: metrics
            )
            await dispatcher.start()
            await dispatcher.deliver(.cancelled(signIn: nil))
            #expect(healthy.accepted.count == 1)
            #expect(
                try await database.sql("SELECT sink FROM haapi_gateway_outbox") == "exec:/bin/false",
                "the accepted delivery is no longer in the outbox"
            )
            #expect(try await Self.eventually(.seconds(60)) { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0" })
            #expect(never.attemptsStarted >= 2, "retried from the outbox before it was given up (\(never.attemptsStarted) attempts)")
            // The dispatcher logs and counts the give-up just after it deletes the row: wait for those very things.
            #expect(try await Self.eventually { logs.text.contains("error callback delivery given up; this outcome is lost for the sink") })
            #expect(logs.text.contains("exec:/bin/false"))
            #expect(try await Self.eventually { metrics.exposition().contains(#"haapi_gateway_callback_deliveries_total{result="given_up"} 1"#) })
            let lines = Set(metrics.exposition().split(separator: "\n").map(String.init))
            #expect(lines.contains(#"haapi_gateway_callback_deliveries_total{result="given_up"} 1"#))
            #expect(lines.contains(#"haapi_gateway_callback_deliveries_total{result="delivered"} 1"#))
            #expect(lines.contains(#"haapi_gateway_callback_deliveries_total{result="retried"} 1"#))
            await dispatcher.flushAtShutdown()
            await replica.kill()
        }

        @Test(
            "two sinks sharing a name (webhooks whose URLs differ only in their query) have rows of their own: one refused is retried though the other accepted"
        )
        func sinksSharingAName() async throws {
            let database = try await StorageTestDatabase.make()
            let replica = try await ReplicaPool(database, keys: [key])
            // Its retry waits for the gate, so that the row is still there when the test looks on a loaded machine.
            let retry = Gate()
            let tenantA = ScriptedSink(name: "webhook:https://hooks.example.com/t", steps: [.refuse, .hold(retry, then: .accept)])
            let tenantB = ScriptedSink(name: "webhook:https://hooks.example.com/t", steps: [])
            let dispatcher = Self.dispatcher(
                replica,
                owner: "replica-a",
                sinks: [tenantA, tenantB],
                settings: CallbackDeliverySettings(initialBackoffSeconds: 0.3)
            )
            await dispatcher.start()
            #expect(await dispatcher.deliver(.cancelled(signIn: nil)) == false)
            #expect(tenantB.accepted.count == 1)
            #expect(try await database.sql("SELECT sink FROM haapi_gateway_outbox") == "webhook:https://hooks.example.com/t")
            retry.open()
            #expect(try await Self.eventually { tenantA.accepted.count == 1 }, "the refused one is retried from the outbox")
            #expect(try await Self.eventually { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0" })
            #expect(tenantB.accepted.count == 1 && tenantA.accepted.first?.id == tenantB.accepted.first?.id)
            await dispatcher.flushAtShutdown()
            await replica.kill()
        }

        @Test(
            "at shutdown an attempt under way gets callbacks.handOverSeconds, then the claims are released: another replica delivers at once, long before the lease would end"
        )
        func shutdownReleasesClaims() async throws {
            let database = try await StorageTestDatabase.make()
            let a = try await ReplicaPool(database, keys: [key])
            let stuckGate = Gate()
            let slowGate = Gate()
            let stuck = ScriptedSink(name: Self.hook, steps: [.hold(stuckGate, then: .accept)])
            let slow = ScriptedSink(name: "file:/var/lib/haapi/out.json", steps: [.hold(slowGate, then: .accept)])
            let dispatcherA = Self.dispatcher(
                a,
                owner: "replica-a",
                sinks: [stuck, slow],
                settings: CallbackDeliverySettings(handOverSeconds: 2),
                lease: .seconds(120)
            )
            await dispatcherA.start()
            #expect(await dispatcherA.deliver(.cancelled(signIn: nil)) == false)
            #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_outbox WHERE claimed_by = 'replica-a'") == "2")
            Task {
                try await Task.sleep(for: .milliseconds(300))
                slowGate.open()
            }
            let stopped = ContinuousClock.now
            await dispatcherA.flushAtShutdown()
            #expect(slow.accepted.count == 1, "the attempt that ended within the hand-over time is done")
            #expect(try await database.sql("SELECT sink, claimed_by IS NULL FROM haapi_gateway_outbox") == "\(Self.hook)|t", "released, not done")

            let b = try await ReplicaPool(database, keys: [key])
            let hookReceiver = ScriptedSink(name: Self.hook, steps: [])
            let fileReceiver = ScriptedSink(name: "file:/var/lib/haapi/out.json", steps: [])
            let dispatcherB = Self.dispatcher(b, owner: "replica-b", sinks: [hookReceiver, fileReceiver], settings: CallbackDeliverySettings())
            await dispatcherB.start()
            #expect(try await Self.eventually(.seconds(20)) { hookReceiver.accepted.count == 1 }, "taken over at once, not after the 120 s lease")
            #expect(ContinuousClock.now - stopped < .seconds(60), "\(MachineLoad.description)")
            #expect(hookReceiver.accepted.first?.id == stuck.started.first)
            try await Task.sleep(for: .milliseconds(500))
            #expect(fileReceiver.accepted.isEmpty, "the delivery done during the shutdown is not delivered again")
            // The delivered row leaves the outbox just after the sink accepted it.
            #expect(try await Self.eventually(.seconds(30)) { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0" })
            await dispatcherB.flushAtShutdown()
            await b.kill()
            stuckGate.open()
            await a.kill()
        }

        @Test("a delivery whose document cannot be opened (its key removed) is given up with an error, never attempted")
        func unopenableIsGivenUp() async throws {
            let database = try await StorageTestDatabase.make()
            let removed = try await ReplicaPool(database, keys: [SessionEncryptionKey.random()])
            try await PostgresOutbox(database: removed.database).enqueue(
                [
                    OutboxDelivery(
                        id: "sealed-under-a-removed-key",
                        sink: Self.hook,
                        outcome: "success",
                        document: Array(#"{"outcome":"success"}"#.utf8)
                    )
                ],
                claimingFor: nil
            )
            await removed.kill()
            let replica = try await ReplicaPool(database, keys: [key])
            let receiver = ScriptedSink(name: Self.hook, steps: [])
            let logs = LogCapture()
            let metrics = GatewayMetrics()
            let dispatcher = Self.dispatcher(
                replica,
                owner: "replica-a",
                sinks: [receiver],
                settings: CallbackDeliverySettings(),
                logs: logs,
                metrics: metrics
            )
            await dispatcher.start()
            #expect(
                try await Self.eventually { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0" },
                "given up: it leaves the outbox"
            )
            #expect(receiver.attemptsStarted == 0)
            // The row goes first; the log line and the count follow it: each waited for itself.
            #expect(try await Self.eventually { logs.text.contains("error callback delivery given up: its document in the outbox cannot be opened") })
            #expect(logs.text.contains("sealed-under-a-removed-key"))
            #expect(
                try await Self.eventually {
                    Set(metrics.exposition().split(separator: "\n").map(String.init)).contains(
                        #"haapi_gateway_callback_deliveries_total{result="given_up"} 1"#
                    )
                }
            )
            await dispatcher.flushAtShutdown()
            await replica.kill()
        }

        @Test("the database unreachable when a delivery is recorded: it goes on in memory, with an error logged, and is delivered")
        func unreachableDatabaseKeepsTheDeliveryInMemory() async throws {
            // Nothing listens on port 1: every operation fails at once as unavailable.
            let url = try PostgresURL.parse("postgres://gateway:unused@127.0.0.1:1/nothing?sslmode=disable").get()
            let replica = try await ReplicaPool(url: url, keys: [key], prepare: false, operationTimeout: .seconds(1))
            let flaky = ScriptedSink(name: Self.hook, steps: [.refuse, .refuse])
            let logs = LogCapture()
            let dispatcher = Self.dispatcher(
                replica,
                owner: "replica-a",
                sinks: [flaky],
                settings: CallbackDeliverySettings(retryForSeconds: 60, initialBackoffSeconds: 0.05),
                logs: logs
            )
            await dispatcher.start()
            let (outcome, _) = Self.canaryOutcome()
            #expect(await dispatcher.deliver(outcome) == false)
            #expect(await dispatcher.pendingCount == 1, "kept in memory")
            await dispatcher.drained()
            #expect(flaky.accepted.count == 1, "delivered once, from memory")
            #expect(flaky.attemptsStarted == 3)
            #expect(logs.text.contains("error the callback outbox cannot be written; these deliveries are kept in this replica's memory only"))
            await dispatcher.flushAtShutdown()
            await replica.kill()
        }

        @Test("a delivery kept in memory while the outbox could not be written is recorded there when it can, and delivered from there")
        func recordedWhenTheDatabaseAnswersAgain() async throws {
            let database = try await StorageTestDatabase.make()
            let replica = try await ReplicaPool(database, keys: [key])
            let gate = Gate()
            let receiver = ScriptedSink(name: Self.hook, steps: [], refusesUntil: gate)
            let logs = LogCapture()
            // The product's lease (60 s), not the tests' 2 s: on a loaded machine, an attempt that began more than 2 s
            // after its claim ran beside this replica's own claim of the same row, and both were accepted once the gate
            // opened (a lease outlasted, which the product allows and docs/postgresql.md describes; not what this tests).
            let dispatcher = Self.dispatcher(
                replica,
                owner: "replica-a",
                sinks: [receiver],
                settings: CallbackDeliverySettings(retryForSeconds: 60, initialBackoffSeconds: 0.1),
                lease: .seconds(60),
                logs: logs
            )
            await dispatcher.start()
            try await database.sql("ALTER TABLE haapi_gateway_outbox RENAME TO haapi_gateway_outbox_away")
            #expect(await dispatcher.deliver(.cancelled(signIn: nil)) == false)
            #expect(logs.text.contains("the callback outbox cannot be written"))
            try await database.sql("ALTER TABLE haapi_gateway_outbox_away RENAME TO haapi_gateway_outbox")
            #expect(
                try await Self.eventually(.seconds(20)) { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "1" },
                "recorded before its next attempt"
            )
            #expect(
                try await Self.eventually { logs.text.contains("callback deliveries kept in memory are now in the outbox") },
                "said once it is there"
            )
            gate.open()
            #expect(try await Self.eventually(.seconds(20)) { receiver.accepted.count == 1 })
            #expect(try await Self.eventually { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0" })
            await dispatcher.flushAtShutdown()
            #expect(receiver.accepted.count == 1, "delivered once: \(logs.text)")
            await replica.kill()
        }

        @Test(
            "a gateway with sessions.store: postgres keeps its pending deliveries in the outbox, not in callbacks.spoolFile, and says so at startup"
        )
        func gatewayUsesTheOutbox() async throws {
            let database = try await StorageTestDatabase.make()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-gateway-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let spool = directory.appendingPathComponent("callbacks.spool").path
            // Its directory does not exist: every attempt fails.
            let target = directory.appendingPathComponent("missing/tokens.json").path
            let logs = LogCapture()
            let store = PostgresStoreSettings(url: try database.url(), encryptionKeys: [key])
            try await GatewayHarness.withGateway(
                logger: logs.logger,
                configure: {
                    $0.sessions.store = .postgres(store)
                    $0.callbacks = [.file(path: target)]
                    $0.callbackDelivery = CallbackDeliverySettings(retryForSeconds: 3600, initialBackoffSeconds: 600, handOverSeconds: 1)
                    $0.callbackDelivery.spoolFile = spool
                }
            ) { browser, _, _ in
                var ready = try await browser.get("/readyz")
                for _ in 0..<40 where ready.status != 200 {
                    try await Task.sleep(for: .milliseconds(250))
                    ready = try await browser.get("/readyz")
                }
                #expect(ready.status == 200, "\(ready.html)")
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("You are signed in") && done.html.contains("taking longer than usual"), "\(done.html)")
                #expect(try await database.sql("SELECT sink, outcome FROM haapi_gateway_outbox") == "file:\(target)|success")
            }
            #expect(!FileManager.default.fileExists(atPath: spool), "the spool file is not used")
            #expect(logs.text.contains("callbacks.spoolFile is not used with sessions.store: postgres"))
            #expect(
                try await database.sql("SELECT count(*) FROM haapi_gateway_outbox WHERE claimed_by IS NULL") == "1",
                "rescheduled unclaimed, for any replica"
            )
        }

        @Test(
            "a device's approval and its sign-in's success outcome are one statement: a replica killed right after it leaves the tokens to the device and the outcome to another replica; one that lives delivers it once; a refused approval adds nothing"
        )
        func deviceApprovalKeepsItsOutcome() async throws {
            let database = try await StorageTestDatabase.make()
            let clock = database.clock
            let a = try await ReplicaPool(database, keys: [key], clock: clock)
            let sinkA = ScriptedSink(name: Self.hook, steps: [])
            let dispatcherA = Self.dispatcher(a, owner: "replica-a", sinks: [sinkA], settings: CallbackDeliverySettings(), lease: .seconds(10))
            let outboxA = CallbackOutbox(
                table: PostgresOutbox(database: a.database, owner: "replica-a"),
                attemptLease: .seconds(10),
                pollInterval: .seconds(1)
            )
            let storeA = PostgresDeviceAuthorizations(
                database: a.database,
                settings: .fixed(Devices.settings()),
                outbox: outboxA,
                logger: StorageTestDatabase.silent
            )
            func signingIn() async throws -> (deviceCode: String, authorization: DeviceAuthorization) {
                let (deviceCode, authorization) = try #require(try await storeA.create(client: Devices.client, scopes: ["openid"], address: nil))
                #expect(try await storeA.beginSignIn(userCode: authorization.userCode) == authorization)
                return (deviceCode, authorization)
            }
            let outcome = CompletionOutcome.handedToDevice(signIn: SignInReference(id: "device-sign-in-1"), identity: nil)
            let entries = try #require(await dispatcherA.prepare(outcome))

            // Approved, and the outcome's delivery in the outbox with it, claimed by this replica for its first attempt:
            // this replica is killed before it attempts it (or hands it to its dispatcher at all).
            let (deviceCode, authorization) = try await signingIn()
            let approval = try await storeA.approve(reference: authorization.reference, tokens: Devices.tokens, keepingOutcome: entries)
            #expect(approval == DeviceApproval(approved: true, outcomeKept: true))
            #expect(try await database.sql("SELECT claimed_by, attempts, outcome FROM haapi_gateway_outbox") == "replica-a|1|success")
            #expect(try await database.sql("SELECT outcome FROM haapi_gateway_sign_in_outcomes WHERE sign_in = 'device-sign-in-1'") == "success")
            await a.kill()

            // Another replica: the device collects its tokens there, and the sinks get the sign-in once A's lease ends.
            let b = try await ReplicaPool(database, keys: [key], clock: clock)
            let receiver = ScriptedSink(name: Self.hook, steps: [])
            let dispatcherB = Self.dispatcher(b, owner: "replica-b", sinks: [receiver], settings: CallbackDeliverySettings())
            let storeB = PostgresDeviceAuthorizations(database: b.database, settings: .fixed(Devices.settings()), logger: StorageTestDatabase.silent)
            guard case .tokens(let handOver) = try await storeB.poll(deviceCode: deviceCode, clientID: Devices.client.id) else {
                Issue.record("the device collects its tokens from the other replica")
                return
            }
            #expect(handOver.tokens == Devices.tokens)
            await dispatcherB.start()
            clock.advance(.seconds(11))
            #expect(try await Self.eventually(.seconds(60)) { receiver.accepted.count == 1 }, "the other replica delivers the outcome")
            #expect(receiver.accepted.first?.id == entries.first?.delivery.id)
            #expect(receiver.accepted.first?.document == (try outcome.encoded()))
            #expect(try await Self.eventually { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0" })

            // A replica that lives hands the kept deliveries over without keeping them again: delivered once.
            let c = try await ReplicaPool(database, keys: [key], clock: clock)
            let sinkC = ScriptedSink(name: Self.hook, steps: [])
            let dispatcherC = Self.dispatcher(c, owner: "replica-c", sinks: [sinkC], settings: CallbackDeliverySettings())
            let storeC = PostgresDeviceAuthorizations(
                database: c.database,
                settings: .fixed(Devices.settings()),
                outbox: CallbackOutbox(
                    table: PostgresOutbox(database: c.database, owner: "replica-c"),
                    attemptLease: .seconds(2),
                    pollInterval: .seconds(1)
                ),
                logger: StorageTestDatabase.silent
            )
            await dispatcherC.start()
            let second = CompletionOutcome.handedToDevice(signIn: SignInReference(id: "device-sign-in-2"), identity: nil)
            let secondEntries = try #require(await dispatcherC.prepare(second))
            let (_, other) = try #require(try await storeC.create(client: Devices.client, scopes: ["openid"], address: nil))
            #expect(try await storeC.beginSignIn(userCode: other.userCode) == other)
            #expect(
                try await storeC.approve(reference: other.reference, tokens: Devices.tokens, keepingOutcome: secondEntries)
                    == DeviceApproval(approved: true, outcomeKept: true)
            )
            #expect(await dispatcherC.hand(secondEntries, outcome: second, keptAlready: true) == .accepted)
            #expect(sinkC.accepted.map(\.id) == [secondEntries[0].delivery.id])
            #expect(try await Self.eventually { try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0" })

            // An approval the code no longer takes (refused on the verification page) adds no delivery.
            let third = try #require(await dispatcherC.prepare(.handedToDevice(signIn: SignInReference(id: "device-sign-in-3"), identity: nil)))
            let (_, refused) = try #require(try await storeC.create(client: Devices.client, scopes: ["openid"], address: nil))
            #expect(try await storeC.refuse(userCode: refused.userCode))
            #expect(
                try await storeC.approve(reference: refused.reference, tokens: Devices.tokens, keepingOutcome: third)
                    == DeviceApproval(approved: false, outcomeKept: false)
            )
            #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_outbox") == "0")
            #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_sign_in_outcomes WHERE sign_in = 'device-sign-in-3'") == "0")
            try await Task.sleep(for: .seconds(1))
            #expect(receiver.accepted.count == 1 && sinkC.accepted.count == 1, "each outcome once")
            await dispatcherC.flushAtShutdown()
            await c.kill()
            await dispatcherB.flushAtShutdown()
            await b.kill()
            await dispatcherA.flushAtShutdown()
        }

        @Test("the configuration's summary says pending deliveries are kept in the outbox, and that callbacks.spoolFile is not used")
        func summaryNamesTheOutbox() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-summary-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try "\(key.base64)\n".write(to: directory.appendingPathComponent("keys"), atomically: true, encoding: .utf8)
            try "postgres://gateway:pw@db.example.com/haapi\n".write(to: directory.appendingPathComponent("url"), atomically: true, encoding: .utf8)
            let file = directory.appendingPathComponent("gateway.yaml")
            try """
            sessions:
              store: postgres
              postgresURLFile: url
              encryptionKeysFile: keys
            callbacks:
              sinks: ["file:\(directory.path)/tokens.json"]
              spoolFile: \(directory.path)/callbacks.spool
            """.write(to: file, atomically: true, encoding: .utf8)
            let summary = try GatewayConfiguration.load(file: file.path, environment: [:]).summary.joined(separator: "\n")
            #expect(
                summary.contains("kept meanwhile in the PostgreSQL outbox, where any replica delivers them (callbacks.spoolFile not used)"),
                "\(summary)"
            )
            #expect(!summary.contains("across restarts"))
        }
    }
}

extension PostgresStorageTests.OutboxDispatcher {
    /// One replica's own connection pool to a test database, on the database's clock; ``kill()`` closes it as a killed
    /// process's connections close: nothing more is reported.
    final class ReplicaPool: Sendable {
        let database: PostgresDatabase
        private let running: Task<Void, Never>

        /// A pool on `test`'s database, on the database's own clock, or on `clock` (leases end when the test moves it).
        convenience init(_ test: StorageTestDatabase, keys: [SessionEncryptionKey], clock: TestClock? = nil) async throws {
            try await self.init(url: try test.url(), keys: keys, prepare: true, clock: clock)
        }

        init(
            url: PostgresURL,
            keys: [SessionEncryptionKey],
            prepare: Bool,
            operationTimeout: Duration = .seconds(10),
            clock: TestClock? = nil
        ) async throws {
            var options = PostgresDatabase.Options()
            options.maximumConnections = 4
            options.operationTimeout = operationTimeout
            options.connectTimeout = .seconds(2)
            let database = PostgresDatabase(
                url: url,
                cipher: try #require(SessionCipher(keys: keys)),
                clock: clock.map { clock in .reading { clock.date } } ?? .database,
                options: options,
                logger: StorageTestDatabase.silent
            )
            self.database = database
            running = Task { await database.client.run() }
            if prepare { try await database.prepareSchema() }
        }

        func kill() async {
            running.cancel()
            await running.value
        }
    }

    /// Opened once by the test; attempts held at it go on.
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var isOpen = false

        var opened: Bool { lock.withLock { isOpen } }

        func open() { lock.withLock { isOpen = true } }

        func wait() async {
            while !opened { try? await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// A sink whose attempts follow a script, a step each (beyond it: accepted, or refused until `refusesUntil` opens).
    final class ScriptedSink: CallbackSink, @unchecked Sendable {
        indirect enum Step {
            case refuse
            case accept
            /// Held until the gate opens, then the step given.
            case hold(Gate, then: Step)
        }

        let name: String
        private let steps: [Step]
        private let refusesUntil: Gate?
        private let lock = NSLock()
        private var startedIDs: [String] = []
        private var acceptedDeliveries: [(CallbackDelivery, Date)] = []

        init(name: String, steps: [Step], refusesUntil: Gate? = nil) {
            self.name = name
            self.steps = steps
            self.refusesUntil = refusesUntil
        }

        /// The delivery ids of the attempts begun, in order.
        var started: [String] { lock.withLock { startedIDs } }
        var attemptsStarted: Int { started.count }
        var accepted: [CallbackDelivery] { lock.withLock { acceptedDeliveries.map(\.0) } }
        var acceptedAt: [Date] { lock.withLock { acceptedDeliveries.map(\.1) } }

        func deliver(_ delivery: CallbackDelivery) async throws {
            let index = lock.withLock {
                startedIDs.append(delivery.id)
                return startedIDs.count - 1
            }
            var step = index < steps.count ? steps[index] : (refusesUntil.map { $0.opened ? .accept : .refuse } ?? .accept)
            while case .hold(let gate, let then) = step {
                await gate.wait()
                step = then
            }
            guard case .accept = step else { throw GatewayError(.internalError, "receiver down") }
            lock.withLock { acceptedDeliveries.append((delivery, Date())) }
        }
    }

    /// How many claims of due deliveries (``PostgresOutbox/claimDue(sinks:limit:lease:)``) have finished in `database`
    /// since `instant` (the database's time), by its connections' last statements.
    static func claimsFinished(in database: StorageTestDatabase, since instant: String) async throws -> Int {
        Int(
            try await database.sql(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle'
                  AND query LIKE '%haapi_gateway_outbox%FOR UPDATE OF o SKIP LOCKED%' AND query_start > '\(instant)'::timestamptz
                """
            )
        ) ?? 0
    }

    /// Whether `condition` holds within `timeout` (asked every 50 ms).
    static func eventually(_ timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }
}
