import Testing

@testable import GatewayTestSupport

extension PostgresStorageTests {
    /// Kiosk mode's idle reset with the sign-ins in PostgreSQL, where how long one was left alone is the database's
    /// reading (`PostgresSessionStorage.idleDuration`), not the gateway's: the same walks as "Kiosk mode", the clock
    /// moving the database's time too.
    @Suite("Kiosk mode with sign-ins in PostgreSQL")
    struct Kiosk {
        @Test("an idle page starts over, an active one does not")
        func idleReset() async throws { try await KioskModeTests.idleReset(.postgres(try await StorageTestDatabase.make())) }

        @Test(
            "a sign-in left alone past kiosk.idleResetSeconds is ended on any route, refresh or not: the next person starts afresh, cannot finish it, and nothing is delivered"
        )
        func walkedAwayWithoutTheRefresh() async throws {
            try await KioskModeTests.walkedAwayWithoutTheRefresh(.postgres(try await StorageTestDatabase.make()))
        }

        @Test("a HEAD with the sign-in's cookie neither ends an idle sign-in nor keeps one alive")
        func aHeadResetsNothing() async throws { try await KioskModeTests.aHeadResetsNothing(.postgres(try await StorageTestDatabase.make())) }

        @Test("a sign-in used within kiosk.idleResetSeconds goes on: each request counts as use")
        func activeSignInGoesOn() async throws { try await KioskModeTests.activeSignInGoesOn(.postgres(try await StorageTestDatabase.make())) }
    }
}
