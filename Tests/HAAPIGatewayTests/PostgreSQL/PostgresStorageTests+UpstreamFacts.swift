import Foundation
import HAAPI
import HAAPIDemoServer
import HAAPIGateway
import HummingbirdTesting
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    /// What the replicas learned about the upstream (token-bound codes, [TOKENBIND]) in `haapi_gateway_upstream_facts`,
    /// against the strict demo that uses a refused code up (`consumesCodesOnRefusedProof`).
    @Suite("Upstream facts shared by replicas through PostgreSQL")
    struct UpstreamFacts {
        let key = SessionEncryptionKey.random()

        @Test(
            "one replica's first sign-in fails and writes the finding; the other replica, running already, and a gateway started afterwards succeed at their first sign-in"
        )
        func anotherReplicaAndARestartProveAtOnce() async throws {
            let key = key
            try await SharedReplicas.run(keys: [key], demoConfiguration: TokenBoundCodesTests.demoConfiguration) { replicas in
                try await TestBrowser.using(replicas.urls[0]) { browser in
                    TokenBoundCodesTests.expectClearFailure(try await browser.signInAsDemo())
                }
                #expect(
                    try await replicas.database.sql(
                        "SELECT issuer || ' ' || client_id || ' ' || token_bound_codes FROM haapi_gateway_upstream_facts"
                    )
                        == "\(replicas.demo.issuer) \(DemoServer.clientID) true"
                )
                try await TestBrowser.using(replicas.urls[1]) { browser in
                    let done = try await browser.signInAsDemo()
                    #expect(done.html.contains("You are signed in"), "the replica that was running already: \(done.html)")
                }
                // A gateway started now, as after a restart, on the same database.
                var configuration = GatewayHarness.configuration(demo: replicas.demo, sinkPath: replicas.sinkPath + ".third")
                configuration.sessions.store = .postgres(PostgresStoreSettings(url: try replicas.database.url(), encryptionKeys: [key]))
                let application = try await HAAPIGateway.Gateway.makeApplication(
                    configuration: configuration,
                    logger: Logger(label: "third", factory: { _ in SwiftLogNoOpLogHandler() }),
                    storageChoice: .bySessionsStore
                )
                try await application.test(.live) { client in
                    try await TestBrowser.using("http://127.0.0.1:\(client.port!)") { browser in
                        var ready = try await browser.get("/readyz")
                        for _ in 0..<80 where ready.status != 200 {
                            try await Task.sleep(for: .milliseconds(250))
                            ready = try await browser.get("/readyz")
                        }
                        let done = try await browser.signInAsDemo()
                        #expect(done.html.contains("You are signed in"), "the restarted gateway: \(done.html)")
                    }
                }
                #expect(try await replicas.database.sql("SELECT count(*) FROM haapi_gateway_upstream_facts") == "1")
            }
        }

        @Test("the table keeps one row per issuer and client id: read, upserted, forgotten; another issuer or client starts unknown")
        func rowsAreKeyedByIssuerAndClientID() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { handle in
                let facts = PostgresUpstreamFacts(database: handle)
                #expect(facts.isReady && facts.isShared)
                let key = UpstreamFactKey(issuer: "https://idsvr.example/oauth/v2/oauth-anonymous", clientID: "gateway")
                #expect(try await facts.finding(for: key) == .unknown)
                try await facts.record(.proofRequired, for: key)
                #expect(try await facts.finding(for: key) == .proofRequired)
                try await facts.record(.proofNotRequired, for: key)
                #expect(try await facts.finding(for: key) == .proofNotRequired)
                #expect(try await facts.finding(for: UpstreamFactKey(issuer: key.issuer, clientID: "other")) == .unknown)
                #expect(try await facts.finding(for: UpstreamFactKey(issuer: "https://other.example", clientID: "gateway")) == .unknown)
                try await facts.record(.unknown, for: key)
                #expect(try await facts.finding(for: key) == .unknown)
            }
        }
    }
}
