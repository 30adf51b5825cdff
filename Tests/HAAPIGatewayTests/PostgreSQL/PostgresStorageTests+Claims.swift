import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    @Suite("Session claims in PostgreSQL")
    struct Claims {
        let lifetimes = SessionLifetimes(absolute: .seconds(3600), idle: .seconds(600))
        let key = SessionEncryptionKey.random()

        private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

        @Test(
            "a claimed session is busy for every other claim and unclaimed save until its holder saves or releases it; a save under a claim releases it"
        )
        func claimsExclude() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                try await storage.insert(id: "s", document: bytes("one"), lifetimes: lifetimes, address: nil)
                #expect(
                    try await storage.claim(id: "s", claim: "first", lease: .seconds(10))
                        == .claimed(StoredSession(document: bytes("one"), version: 1))
                )
                #expect(try await storage.claim(id: "s", claim: "second", lease: .seconds(10)) == .busy)
                #expect(
                    try await storage.save(id: "s", document: bytes("reader"), expectedVersion: 1) == .conflict,
                    "an unclaimed save waits for the holder"
                )
                #expect(
                    try await storage.save(id: "s", document: bytes("other"), expectedVersion: 1, claim: "second") == .conflict,
                    "another claim's save"
                )
                #expect(try await storage.load(id: "s") == .found(StoredSession(document: bytes("one"), version: 1)), "a load reads what is saved")
                #expect(try await storage.save(id: "s", document: bytes("two"), expectedVersion: 1, claim: "first") == .saved(version: 2))
                #expect(
                    try await storage.claim(id: "s", claim: "second", lease: .seconds(10))
                        == .claimed(StoredSession(document: bytes("two"), version: 2))
                )
                try await storage.release(id: "s", claim: "someone-else")
                #expect(try await storage.claim(id: "s", claim: "third", lease: .seconds(10)) == .busy, "only the holder releases")
                try await storage.release(id: "s", claim: "second")
                #expect(
                    try await storage.save(id: "s", document: bytes("three"), expectedVersion: 2) == .saved(version: 3),
                    "released: an unclaimed save goes"
                )
                #expect(try await storage.claim(id: "absent", claim: "x", lease: .seconds(10)) == .absent)
                guard case .rotated = try await storage.rotate(id: "s", document: bytes("four"), expectedVersion: 3, claim: nil) else {
                    Issue.record("an unclaimed session is not rotated")
                    return
                }
            }
        }

        @Test("a claim ends at its lease unless renewed (a replica that died); renewing keeps it; only the holder renews")
        func leases() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                try await storage.insert(id: "s", document: bytes("one"), lifetimes: lifetimes, address: nil)
                _ = try await storage.claim(id: "s", claim: "dead", lease: .seconds(10))
                database.clock.advance(.seconds(8))
                #expect(try await storage.renew(id: "s", claim: "dead", lease: .seconds(10)))
                #expect(try await !storage.renew(id: "s", claim: "other", lease: .seconds(10)))
                database.clock.advance(.seconds(8))
                #expect(try await storage.claim(id: "s", claim: "next", lease: .seconds(10)) == .busy, "renewed 8 s ago for 10 s")
                #expect(
                    try await storage.rotate(id: "s", document: bytes("moved"), expectedVersion: 1, claim: nil) == .conflict,
                    "a held session is not rotated"
                )
                database.clock.advance(.seconds(3))
                #expect(
                    try await storage.claim(id: "s", claim: "next", lease: .seconds(10))
                        == .claimed(StoredSession(document: bytes("one"), version: 1))
                )
                #expect(
                    try await storage.save(id: "s", document: bytes("late"), expectedVersion: 1, claim: "dead") == .conflict,
                    "a lapsed claim saves nothing"
                )
            }
        }

        @Test("of many requests claiming one session at once exactly one holds it (50 races of 4)")
        func concurrentClaims() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                for round in 0..<50 {
                    let id = "race-\(round)"
                    try await storage.insert(id: id, document: bytes("start"), lifetimes: lifetimes, address: nil)
                    let results = try await withThrowingTaskGroup(of: SessionClaim.self) { group in
                        for index in 0..<4 { group.addTask { try await storage.claim(id: id, claim: "c\(index)", lease: .seconds(10)) } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(results.filter { $0 == .busy }.count == 3, "round \(round): \(results)")
                }
            }
        }

        @Test("idle time counts from the last load, claim or save, without touching the session")
        func idleTime() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                try await storage.insert(id: "s", document: bytes("one"), lifetimes: lifetimes, address: nil)
                database.clock.advance(.seconds(30))
                #expect(try await storage.idleDuration(id: "s") == .seconds(30))
                #expect(try await storage.idleDuration(id: "s") == .seconds(30), "reading it is no use")
                _ = try await storage.load(id: "s")
                database.clock.advance(.seconds(5))
                #expect(try await storage.idleDuration(id: "s") == .seconds(5))
                #expect(try await storage.idleDuration(id: "absent") == nil)
            }
        }
    }
}
