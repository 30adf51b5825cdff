import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    @Suite("A gateway with sessions.store: postgres")
    struct Gateway {
        @Test("runs the database as a service: the tables are prepared at start and /readyz names the session store; sign-ins still work")
        func gatewayRunsTheDatabase() async throws {
            let database = try await StorageTestDatabase.make()
            let store = PostgresStoreSettings(url: try database.url(), encryptionKeys: [.random()])
            try await GatewayHarness.withGateway(configure: { $0.sessions.store = .postgres(store) }) { browser, _, _ in
                var ready = try await browser.get("/readyz")
                for _ in 0..<40 where ready.status != 200 {
                    try await Task.sleep(for: .milliseconds(250))
                    ready = try await browser.get("/readyz")
                }
                #expect(ready.status == 200, "\(ready.html)")
                #expect(ready.html.contains(#""sessionStore":"ready""#), "\(ready.html)")
                #expect(!ready.html.contains(database.server.password))
                #expect(try await database.sql("SELECT max(version) FROM haapi_gateway_schema") == "\(PostgresSchema.currentVersion)")
                let signedIn = try await browser.signInAsDemo()
                #expect(signedIn.status == 200 && signedIn.html.contains("You are signed in"), "\(signedIn.html)")
                // Each post's redirect names the version it saved, which this replica then shows from what it kept.
                #expect(!browser.locations.isEmpty)
                #expect(browser.locations.allSatisfy { $0.wholeMatch(of: /\/\?saved=[0-9]+/) != nil }, "\(browser.locations)")
            }
        }
    }
}
