import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    @Suite("The PostgreSQL session store")
    struct SessionStore {
        let key = SessionEncryptionKey.random()

        @Test("a request's hold on its sign-in is renewed while it runs (past its lease), released at check-in; a poll meanwhile finds it busy")
        func holdIsRenewed() async throws {
            let database = try await StorageTestDatabase.make()
            let timing = SessionClaimTiming(lease: .seconds(1), renewal: .milliseconds(200), actingWait: .milliseconds(100))
            try await withSignIn(in: database, timing: timing) { store, _, id in
                guard case .found(let acting) = try await store.checkOut(id: id, for: .acting) else {
                    Issue.record("the sign-in was not checked out to act")
                    return
                }
                // The database's clock (the test's) passes the lease twice over while the request runs; the renewals
                // (every 200 ms of real time) keep moving its end.
                for _ in 0..<4 {
                    database.clock.advance(.milliseconds(500))
                    try await Task.sleep(for: .milliseconds(450))
                }
                guard case .busy = try await store.checkOut(id: id, for: .polling) else {
                    Issue.record("the hold ended while its request ran")
                    return
                }
                #expect(store.renewals.heldCount == 1)
                try await store.checkIn(acting)
                #expect(store.renewals.heldCount == 0, "a claim checked in is renewed no more")
                guard case .found(let next) = try await store.checkOut(id: id, for: .polling) else {
                    Issue.record("checked in, the sign-in was still held")
                    return
                }
                try await store.checkIn(next)
                var stopped = !store.renewals.isRunning
                for _ in 0..<100 where !stopped {
                    try await Task.sleep(for: .milliseconds(20))
                    stopped = !store.renewals.isRunning
                }
                #expect(stopped, "the renewing task ends once no claim is held")
            }
        }

        @Test(
            "the page a post redirects to, naming the version the post saved, is shown from what that replica kept without asking the database; another version reads the row"
        )
        func pageAfterPost() async throws {
            let database = try await StorageTestDatabase.make()
            try await withSignIn(in: database) { store, _, id in
                guard case .found(let acting) = try await store.checkOut(id: id, for: .acting) else {
                    Issue.record("not found")
                    return
                }
                await acting.session.add(notice: .gateway(.signInRestarted))
                try await store.checkIn(acting)
                let saved = try #require(acting.storedVersion)
                #expect(try await database.sql("SELECT version FROM haapi_gateway_sessions") == "\(saved)", "the post saved a new version")
                // Another replica writes the row since (as far as this one can tell: its version moves, its document
                // does not open): the page after the post does not ask.
                let row = PostgresSessionStorage.rowID(for: id)
                try await database.sql("UPDATE haapi_gateway_sessions SET version = version + 1, document = '\\x00' WHERE id = '\(row)'")
                guard case .found(let page) = try await store.checkOut(id: id, for: .readingAfterPost(savedVersion: saved)) else {
                    Issue.record("the page after the post asked the database")
                    return
                }
                #expect(page.session === acting.session, "what the post kept, not decoded again")
                try await store.checkIn(page)
                #expect(
                    outcome(try await store.checkOut(id: id, for: .readingAfterPost(savedVersion: saved + 1))) == "unreadable",
                    "a version not kept reads the row"
                )
                #expect(outcome(try await store.checkOut(id: id, for: .reading)) == "unreadable", "any other page reads the row")
            }
        }

        @Test(
            "a replica reuses the sign-in it decoded while the row is at that version, without reading the document; once another wrote the row it reads it again"
        )
        func decodedSignInsAreReused() async throws {
            let database = try await StorageTestDatabase.make()
            try await withSignIn(in: database) { store, replica, id in
                let row = PostgresSessionStorage.rowID(for: id)
                guard case .found(let first) = try await store.checkOut(id: id, for: .reading) else {
                    Issue.record("not found")
                    return
                }
                try await store.checkIn(first)
                // The document is no longer readable, the version unchanged: only a replica that does not read it goes on.
                try await database.sql("UPDATE haapi_gateway_sessions SET document = '\\x00' WHERE id = '\(row)'")
                for use in [SessionUse.reading, .acting, .polling] {
                    guard case .found(let again) = try await store.checkOut(id: id, for: use) else {
                        Issue.record("the decoded sign-in was not reused (\(use))")
                        return
                    }
                    #expect(again.session === first.session, "the same session, not decoded again (\(use))")
                    try await store.checkIn(again)
                }
                #expect(outcome(try await replica.checkOut(id: id, for: .reading)) == "unreadable", "a replica without it reads the row")
                // Written by someone else: the version moved, so the kept session is stale and the row is read.
                try await database.sql("UPDATE haapi_gateway_sessions SET version = version + 1 WHERE id = '\(row)'")
                #expect(outcome(try await store.checkOut(id: id, for: .reading)) == "unreadable")
            }
        }

        @Test("two requests of one replica never share a decoded sign-in: the second reads its own; a busy claim keeps the decoded one")
        func decodedSignInIsTakenByOneRequest() async throws {
            let database = try await StorageTestDatabase.make()
            let timing = SessionClaimTiming(lease: .seconds(10), renewal: .seconds(3), actingWait: .milliseconds(50))
            try await withSignIn(in: database, timing: timing) { store, _, id in
                guard case .found(let acting) = try await store.checkOut(id: id, for: .acting) else {
                    Issue.record("not claimed")
                    return
                }
                guard case .found(let reading) = try await store.checkOut(id: id, for: .reading) else {
                    Issue.record("not loaded")
                    return
                }
                #expect(reading.session !== acting.session, "the reading request decoded its own")
                #expect(outcome(try await store.checkOut(id: id, for: .polling)) == "busy")
                try await store.checkIn(reading)
                try await store.checkIn(acting)
                #expect(store.cache.count == 1)
                guard case .found(let next) = try await store.checkOut(id: id, for: .acting) else {
                    Issue.record("not claimed after check-in")
                    return
                }
                #expect(store.cache.count == 0, "taken out while in use")
                try await store.checkIn(next)
            }
        }

        @Test("the count of sessions (for the cap and /metrics) is read from the database at most once a second")
        func countIsReused() async throws {
            let database = try await StorageTestDatabase.make()
            try await withSignIn(in: database) { store, _, _ in
                // A round: a count read afresh, a session stored behind the store's back, and the count asked again at
                // once, which reuses the first (under a second old). "At once" is checked, not assumed: on a machine so
                // loaded that a round took 0.9 s or more, the round is made again, for up to a minute.
                var rounds = 0
                var quick: (count: Int, reused: Int)?
                let giveUp = ContinuousClock.now + .seconds(60)
                while quick == nil, ContinuousClock.now < giveUp {
                    rounds += 1
                    // Whatever count was read before is let go stale first, so that the one read next is taken after
                    // `counted` (an older one, reused, made the window below start earlier than measured).
                    try await Task.sleep(for: .milliseconds(1100))
                    let counted = ContinuousClock.now
                    let count = await store.count
                    try await store.storage.insert(
                        id: SecureToken.make(),
                        document: Array("another".utf8),
                        lifetimes: SessionLifetimes(absolute: .seconds(60), idle: .seconds(60)),
                        address: nil
                    )
                    let reused = await store.count
                    if ContinuousClock.now - counted < .milliseconds(900) { quick = (count, reused) }
                }
                let round = try #require(quick, "no round of \(rounds) in a minute took under 0.9 s")
                // The sign-in, and one session stored in each round before this one.
                #expect(round.count == rounds, "the count read afresh")
                #expect(round.reused == round.count, "a count under a second old is reused (the session just stored is not in it)")
                try await Task.sleep(for: .milliseconds(1100))
                #expect(await store.count == rounds + 1, "a second later it is read again")
            }
        }

        private func outcome(_ lookup: SessionLookup<SignInSession>) -> String {
            switch lookup {
            case .found: "found"
            case .absent: "absent"
            case .busy: "busy"
            case .unreadable: "unreadable"
            }
        }

        /// Runs `body` with two PostgreSQL session stores (two replicas) over `database`, the strict demo's client, and a
        /// started sign-in added through the first and checked in.
        private func withSignIn(
            in database: StorageTestDatabase,
            timing: SessionClaimTiming = .init(),
            _ body: (PostgresSessionStore, PostgresSessionStore, String) async throws -> Void
        ) async throws {
            let demo = try await DemoServer.start(configuration: .strict)
            let logger = StorageTestDatabase.silent
            let configuration = GatewayHarness.configuration(demo: demo, sinkPath: "/dev/null")
            guard case .haapi(let upstreamConfiguration) = configuration.upstream else { throw TestBrowser.BrowserError("no upstream") }
            let upstream = UpstreamConnection(configuration: upstreamConfiguration, logger: logger)
            do {
                try await upstream.attempt()
                let client = try #require(upstream.client)
                let dispatcher = CallbackDispatcher(sinks: .fixed([]), logger: logger)
                let live = LiveSettings(configuration: configuration, templates: try TemplateLibrary(settings: configuration.templates))
                let restorer = SignInRestorer(
                    upstream: upstream,
                    dispatcher: dispatcher,
                    live: live,
                    devices: nil,
                    metrics: GatewayMetrics(),
                    logger: logger
                )
                try await database.withStorage(keys: [key]) { storage in
                    let stores = (0..<2).map { _ in
                        PostgresSessionStore(
                            storage: storage,
                            settings: .fixed(SessionSettings()),
                            restorer: restorer,
                            timing: timing,
                            logger: logger
                        )
                    }
                    let session = SignInSession(flow: client.makeFlow(), dispatcher: dispatcher, logger: logger)
                    try await session.begin(acceptLanguage: nil)
                    let added = try #require(try await stores[0].add(session, address: nil))
                    try await stores[0].checkIn(added)
                    try await body(stores[0], stores[1], added.id)
                }
            } catch {
                try? await upstream.client?.shutdown()
                await demo.shutdown()
                throw error
            }
            try? await upstream.client?.shutdown()
            await demo.shutdown()
        }
    }
}
