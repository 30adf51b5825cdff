import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension PostgresStorageTests {
    @Suite("The PostgreSQL session store")
    struct SessionStore {
        let key = SessionEncryptionKey.random()

        @Test("a request's hold on its sign-in is renewed while it runs (past its lease), released at check-in; a poll meanwhile finds it busy")
        func holdIsRenewed() async throws {
            let database = try await StorageTestDatabase.make()
            let demo = try await DemoServer.start(configuration: .strict)
            let logger = StorageTestDatabase.silent
            let configuration = GatewayHarness.configuration(demo: demo, sinkPath: "/dev/null")
            guard case .haapi(let upstreamConfiguration) = configuration.upstream else { throw TestBrowser.BrowserError("no upstream") }
            let upstream = UpstreamConnection(configuration: upstreamConfiguration, logger: logger)
            do {
                try await upstream.attempt()
                let client = try #require(upstream.client)
                let dispatcher = CallbackDispatcher(sinks: [], logger: logger)
                let live = LiveSettings(configuration: configuration, templates: try TemplateLibrary(settings: configuration.templates))
                let restorer = SignInRestorer(upstream: upstream, dispatcher: dispatcher, live: live, devices: nil, metrics: GatewayMetrics(), logger: logger)
                try await database.withStorage(keys: [key]) { storage in
                    let store = PostgresSessionStore(
                        storage: storage, settings: SessionSettings(), restorer: restorer,
                        timing: SessionClaimTiming(lease: .seconds(1), renewal: .milliseconds(200), actingWait: .milliseconds(100)), logger: logger)
                    let session = SignInSession(flow: client.makeFlow(), dispatcher: dispatcher, logger: logger)
                    try await session.begin(acceptLanguage: nil)
                    let added = try #require(try await store.add(session, address: nil))
                    try await store.checkIn(added)
                    guard case .found(let acting) = try await store.checkOut(id: added.id, for: .acting) else {
                        Issue.record("the sign-in was not checked out to act")
                        return
                    }
                    // The database's clock (the test's) passes the lease twice over while the request runs; the renewals
                    // (every 200 ms of real time) keep moving its end.
                    for _ in 0..<4 {
                        database.clock.advance(.milliseconds(500))
                        try await Task.sleep(for: .milliseconds(450))
                    }
                    guard case .busy = try await store.checkOut(id: added.id, for: .polling) else {
                        Issue.record("the hold ended while its request ran")
                        return
                    }
                    try await store.checkIn(acting)
                    guard case .found(let next) = try await store.checkOut(id: added.id, for: .polling) else {
                        Issue.record("checked in, the sign-in was still held")
                        return
                    }
                    try await store.checkIn(next)
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
