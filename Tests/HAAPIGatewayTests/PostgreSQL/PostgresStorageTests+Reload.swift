import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension PostgresStorageTests {
    /// The PostgreSQL stores read their settings from the configuration in effect at each operation, as the memory ones
    /// do ("A reload reaches every component"): the storage is handed where to read them, not a copy.
    @Suite("A reload reaches the PostgreSQL stores")
    struct Reload {
        @Test(
            "after one reload, the new-sign-in budget, the pending device authorizations and the wrong user codes kept in the database follow the new bounds at once"
        )
        func storesReadTheReloadedSettings() async throws {
            let database = try await StorageTestDatabase.make()
            let store = PostgresStoreSettings(url: try database.url(), encryptionKeys: [.random()])
            let reload = ReloadReachesEveryComponentTests.Reload()
            try await DeviceAuthorizationTests.withDevice(
                reloader: reload.reloader,
                configure: {
                    $0.sessions.store = .postgres(store)
                    $0.sessions.maximumNewSessionsPerAddress = 0
                    $0.devices.maximumPendingAuthorizations = 10
                    reload.capture($0)
                }
            ) { device, person, _ in
                var ready = try await person.get("/readyz")
                for _ in 0..<40 where ready.status != 200 {
                    try await Task.sleep(for: .milliseconds(250))
                    ready = try await person.get("/readyz")
                }
                #expect(ready.status == 200, "\(ready.html)")
                for _ in 0..<2 { #expect(try await ReloadReachesEveryComponentTests.newBrowserOpens(person.baseURL) == 200, "no bound yet") }
                _ = try await device.authorize()
                #expect(try await DeviceCodeGuardTests.enter("BBBB-BBBB", person).status == 400)

                try await reload.apply {
                    $0.sessions.maximumNewSessionsPerAddress = 1
                    $0.devices.maximumPendingAuthorizations = 1
                    $0.devices.maximumWrongCodesPerAddress = 1
                }
                // The device authorization is the address's one new sign-in: admitted, then refused for the pending bound.
                let refused = try await device.post("/oauth/device_authorization", [])
                #expect(refused.status == 503, "\(refused.status) \(refused.json)")
                #expect(try await ReloadReachesEveryComponentTests.newBrowserOpens(person.baseURL) == 429)
                #expect(try await DeviceCodeGuardTests.enter("CCCC-CCCC", person).status == 429)
            }
        }
    }
}
