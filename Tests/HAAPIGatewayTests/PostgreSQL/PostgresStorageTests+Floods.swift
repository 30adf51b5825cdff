import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    /// Flood protection with the shared store (B21): an address's budget of new sign-ins counted for the replicas
    /// together, and at the cap the sessions nobody came back to pushed out, as the memory store does.
    @Suite("Sign-in floods with PostgreSQL")
    struct Floods {
        let key = SessionEncryptionKey.random()
        let lifetimes = SessionLifetimes(absolute: .seconds(3600), idle: .seconds(600))

        @Test(
            "at the cap the oldest session nobody came back to, of the address holding the most, is pushed out; one someone came back to (a second page, a post) never is; when all are in use a new one is refused"
        )
        func untouchedSessionsArePushedOut() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                for index in 0..<3 {
                    try await storage.insert(id: "flood-\(index)", document: [1], lifetimes: lifetimes, address: "198.51.100.7")
                    database.clock.advance(.seconds(1))
                }
                try await storage.insert(id: "other", document: [1], lifetimes: lifetimes, address: "198.51.100.9")
                try await storage.insert(id: "person", document: [1], lifetimes: lifetimes, address: "203.0.113.5")
                try await storage.insert(id: "poster", document: [1], lifetimes: lifetimes, address: "203.0.113.6")
                // The person's browser follows the redirect to the first page at once (within the second), the other posts.
                _ = try await storage.load(id: "person")
                _ = try await storage.claim(id: "poster", claim: "request-1", lease: .seconds(10))
                try await storage.release(id: "poster", claim: "request-1")
                #expect(try await storage.hasUntouched())
                // The cap is 6: each new sign-in (the person's address, and a person who comes back to it) pushes one out.
                var outcomes: [SessionInsertion] = []
                for index in 0..<5 {
                    outcomes.append(
                        try await storage.insert(id: "late-\(index)", document: [2], lifetimes: lifetimes, address: "203.0.113.5", withinCap: 6)
                    )
                    _ = try await storage.load(id: "late-\(index)")
                }
                #expect(outcomes == Array(repeating: .insertedAfterPushingOut, count: 4) + [.full])
                #expect(try await storage.load(id: "flood-0") == .absent, "the oldest of the crowded address first")
                for id in ["flood-1", "flood-2", "other"] { #expect(try await storage.load(id: id) == .absent, "\(id)") }
                for id in ["person", "poster", "late-0", "late-3"] {
                    #expect(try await storage.load(id: id) != .absent, "\(id) came back, and stays")
                }
                #expect(try await storage.load(id: "late-4") == .absent, "refused: every session is in use")
                #expect(try await storage.count() == 6)
                #expect(try await storage.hasUntouched() == false)
                #expect(try await storage.insert(id: "below", document: [3], lifetimes: lifetimes, address: nil, withinCap: 7) == .inserted)
            }
        }

        @Test(
            "an address's budget of new sign-ins holds for two replicas together; another address has its own; the wait is until the oldest start leaves the window"
        )
        func budgetIsSharedByReplicas() async throws {
            let database = try await StorageTestDatabase.make()
            var settings = SessionSettings()
            settings.maximumNewSessionsPerAddress = 3
            settings.newSessionWindowSeconds = 60
            try await database.withDatabase(keys: [key]) { first in
                try await database.withDatabase(keys: [key]) { second in
                    let replicas = [first, second].map {
                        PostgresNewSessionLimiter(database: $0, settings: .fixed(settings), logger: StorageTestDatabase.silent)
                    }
                    var answers: [Int?] = []
                    for index in 0..<4 {
                        answers.append(await replicas[index % 2].admit(address: "198.51.100.7"))
                        database.clock.advance(.seconds(10))
                    }
                    #expect(answers == [nil, nil, nil, 30], "three admitted in all; the fourth waits until the first is 60 s old")
                    #expect(await replicas[1].admit(address: "203.0.113.5") == nil)
                    #expect(await replicas[0].admit(address: nil) == nil, "no address (a Unix socket): not counted")
                    database.clock.advance(.seconds(21))
                    #expect(await replicas[1].admit(address: "198.51.100.7") == nil, "the first start left the window")
                }
            }
            #expect(
                try await database.sql("SELECT count(*) FROM haapi_gateway_sign_in_starts WHERE address = '198.51.100.7'") == "3",
                "the old start went"
            )
        }
    }
}
