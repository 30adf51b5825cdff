import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    @Suite("Sessions in PostgreSQL")
    struct Sessions {
        let lifetimes = SessionLifetimes(absolute: .seconds(3600), idle: .seconds(600))
        let key = SessionEncryptionKey.random()

        private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

        @Test("insert, load and save carry versions; a save naming an old version is a conflict; a removed session is absent and gone")
        func versions() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                #expect(try await storage.insert(id: "session-a", document: bytes("one"), lifetimes: lifetimes, address: "203.0.113.7") == 1)
                #expect(try await storage.load(id: "session-a") == .found(StoredSession(document: bytes("one"), version: 1)))
                #expect(try await storage.load(id: "session-b") == .absent)
                #expect(try await storage.save(id: "session-a", document: bytes("two"), expectedVersion: 1) == .saved(version: 2))
                #expect(try await storage.load(id: "session-a") == .found(StoredSession(document: bytes("two"), version: 2)))
                #expect(try await storage.save(id: "session-a", document: bytes("stale"), expectedVersion: 1) == .conflict)
                #expect(
                    try await storage.load(id: "session-a") == .found(StoredSession(document: bytes("two"), version: 2)),
                    "a conflict writes nothing"
                )
                #expect(try await storage.count() == 1)
                try await storage.remove(id: "session-a")
                #expect(try await storage.load(id: "session-a") == .absent)
                #expect(try await storage.save(id: "session-a", document: bytes("three"), expectedVersion: 2) == .gone)
                #expect(try await storage.count() == 0)
                await #expect(throws: PostgresStorageError.self, "an id taken is refused") {
                    try await storage.insert(id: "session-c", document: bytes("x"), lifetimes: lifetimes, address: nil)
                    try await storage.insert(id: "session-c", document: bytes("y"), lifetimes: lifetimes, address: nil)
                }
            }
        }

        @Test("two writers saving the same version at once: exactly one wins, the other is told conflict (50 races)")
        func concurrentSaves() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                for round in 0..<50 {
                    let id = "race-\(round)"
                    try await storage.insert(id: id, document: bytes("start"), lifetimes: lifetimes, address: nil)
                    async let first = storage.save(id: id, document: bytes("first"), expectedVersion: 1)
                    async let second = storage.save(id: id, document: bytes("second"), expectedVersion: 1)
                    let results = [try await first, try await second]
                    #expect(results.filter { $0 == .saved(version: 2) }.count == 1, "round \(round): \(results)")
                    #expect(results.filter { $0 == .conflict }.count == 1, "round \(round): \(results)")
                    let winner = results[0] == .saved(version: 2) ? "first" : "second"
                    #expect(try await storage.load(id: id) == .found(StoredSession(document: bytes(winner), version: 2)))
                }
            }
        }

        @Test(
            "rotation saves a session under a fresh id in one write: the old id finds nothing, the new one the document; the table holds neither id"
        )
        func rotation() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                let oldID = SecureToken.make()
                try await storage.insert(id: oldID, document: bytes("signed in"), lifetimes: lifetimes, address: nil)
                guard case .claimed = try await storage.claim(id: oldID, claim: "request", lease: .seconds(10)) else {
                    Issue.record("not claimed")
                    return
                }
                #expect(
                    try await storage.rotate(id: oldID, document: bytes("stale"), expectedVersion: 1, claim: "another request") == .conflict,
                    "held by another claim"
                )
                #expect(
                    try await storage.rotate(id: oldID, document: bytes("stale"), expectedVersion: 7, claim: "request") == .conflict,
                    "another version"
                )
                guard
                    case .rotated(let newID, let version) = try await storage.rotate(
                        id: oldID,
                        document: bytes("signed in, step 2"),
                        expectedVersion: 1,
                        claim: "request"
                    )
                else {
                    Issue.record("not rotated")
                    return
                }
                #expect(newID != oldID && newID.count >= 43, "a fresh 256-bit id")
                #expect(version == 2)
                #expect(try await storage.load(id: oldID) == .absent)
                #expect(try await storage.load(id: newID) == .found(StoredSession(document: bytes("signed in, step 2"), version: 2)))
                #expect(try await storage.claim(id: newID, claim: "next request", lease: .seconds(10)) != .busy, "the rotation released the claim")
                #expect(try await storage.rotate(id: oldID, document: bytes("gone"), expectedVersion: 2, claim: nil) == .gone)
                #expect(try await storage.count() == 1, "the row is kept, not copied")
                let stored = try await database.sql("SELECT id FROM haapi_gateway_sessions")
                #expect(stored == PostgresSessionStorage.rowID(for: newID))
                #expect(!stored.contains(newID) && !stored.contains(oldID), "rows are found by the id's SHA-256, never the id")
            }
        }

        @Test("the outbox's pool commits waiting for the disk; a sign-in's (documents, holds, uses) commits without waiting")
        func commitDurability() async throws {
            let database = try await StorageTestDatabase.make()
            // The test server skips the disk everywhere (speed); this database waits for it, as a production one does.
            try await database.sql("ALTER DATABASE \"\(database.name)\" SET synchronous_commit = on")
            try await database.withStorage(keys: [key]) { storage in
                let durable = try await storage.database.perform("durable", commit: .durable) { client in
                    try await client.query("SHOW synchronous_commit").decode(String.self).first { _ in true }
                }
                let asynchronous = try await storage.database.perform("asynchronous", commit: .asynchronous) { client in
                    try await client.query("SHOW synchronous_commit").decode(String.self).first { _ in true }
                }
                #expect(durable == "on")
                #expect(asynchronous == "off")
            }
        }

        @Test("a caller that holds the row's version is told so instead of being sent the document again; any other version gets the document")
        func knownVersion() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withStorage(keys: [key]) { storage in
                let id = SecureToken.make()
                try await storage.insert(id: id, document: bytes("step 1"), lifetimes: lifetimes, address: nil)
                #expect(try await storage.load(id: id, knownVersion: 1) == .current(version: 1))
                #expect(try await storage.load(id: id, knownVersion: 2) == .found(StoredSession(document: bytes("step 1"), version: 1)))
                #expect(try await storage.claim(id: id, claim: "a", lease: .seconds(10), knownVersion: 1) == .claimedCurrent(version: 1))
                #expect(try await storage.save(id: id, document: bytes("step 2"), expectedVersion: 1, claim: "a") == .saved(version: 2))
                #expect(
                    try await storage.claim(id: id, claim: "b", lease: .seconds(10), knownVersion: 1)
                        == .claimed(StoredSession(document: bytes("step 2"), version: 2))
                )
                #expect(try await storage.claim(id: id, claim: "c", lease: .seconds(10), knownVersion: 2) == .busy)
                #expect(try await storage.load(id: SecureToken.make(), knownVersion: 1) == .absent)
            }
        }

        @Test(
            "a session ends when left alone for its idle lifetime or past its absolute one; loads and saves keep it alive; sweep deletes only expired rows"
        )
        func expiryAndSweep() async throws {
            let database = try await StorageTestDatabase.make()
            let short = SessionLifetimes(absolute: .seconds(60), idle: .seconds(10))
            try await database.withStorage(keys: [key]) { storage in
                try await storage.insert(id: "idle", document: bytes("i"), lifetimes: short, address: nil)
                try await storage.insert(id: "used", document: bytes("u"), lifetimes: short, address: nil)
                try await storage.insert(id: "long", document: bytes("l"), lifetimes: lifetimes, address: nil)
                // "used" is loaded or saved every 9 s: alive until its absolute lifetime; "idle" ends after 10 s.
                for step in 1...6 {
                    database.clock.advance(.seconds(9))
                    if step.isMultiple(of: 2) {
                        guard case .found(let session) = try await storage.load(id: "used") else {
                            Issue.record("used session gone at step \(step)")
                            return
                        }
                        _ = try await storage.save(id: "used", document: bytes("u\(step)"), expectedVersion: session.version)
                    } else {
                        #expect(try await storage.load(id: "used") != .absent, "step \(step)")
                    }
                    if step == 1 { #expect(try await storage.load(id: "idle") != .absent, "9 s idle is within 10 s") }
                }
                // 54 s: "idle" was last used at 9 s.
                #expect(try await storage.load(id: "idle") == .absent)
                #expect(try await storage.count() == 2)
                #expect(try await storage.sweep() == 1)
                database.clock.advance(.seconds(7))  // 61 s: past "used"'s absolute lifetime, though used 7 s ago
                #expect(try await storage.load(id: "used") == .absent)
                #expect(try await storage.save(id: "used", document: bytes("late"), expectedVersion: 4) == .gone)
                #expect(try await storage.sweep() == 1)
                #expect(try await storage.sweep() == 0)
                #expect(try await storage.count() == 1)
                #expect(try await storage.load(id: "long") != .absent)
                #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_sessions") == "1", "expired rows are deleted")
            }
        }

        @Test("a row sealed under a key no longer configured, or a document moved from another row, is refused as a value")
        func unreadableRows() async throws {
            let database = try await StorageTestDatabase.make()
            let removed = SessionEncryptionKey.random()
            _ = try await database.withStorage(keys: [removed]) { storage in
                try await storage.insert(id: "old-key", document: bytes("secret"), lifetimes: lifetimes, address: nil)
            }
            try await database.withStorage(keys: [key]) { storage in
                #expect(try await storage.load(id: "old-key") == .unreadable(.noMatchingKey))
                #expect(try await storage.claim(id: "old-key", claim: "x", lease: .seconds(10)) == .unreadable(.noMatchingKey))
                #expect(try await storage.claim(id: "old-key", claim: "y", lease: .seconds(10)) != .busy, "refused, the claim was released")
                try await storage.insert(id: "victim", document: bytes("victim's sign-in"), lifetimes: lifetimes, address: nil)
                try await storage.insert(id: "attacker", document: bytes("attacker's sign-in"), lifetimes: lifetimes, address: nil)
                let victim = PostgresSessionStorage.rowID(for: "victim")
                let attacker = PostgresSessionStorage.rowID(for: "attacker")
                try await database.sql(
                    "UPDATE haapi_gateway_sessions SET document = (SELECT document FROM haapi_gateway_sessions WHERE id = '\(victim)') WHERE id = '\(attacker)'"
                )
                #expect(try await storage.load(id: "attacker") == .unreadable(.authenticationFailed), "a document bound to another row does not open")
                #expect(try await storage.load(id: "victim") == .found(StoredSession(document: bytes("victim's sign-in"), version: 1)))
            }
        }

        @Test("key rotation: a row sealed under the old key is read once a new key is put first, and sealed under the new key by its next save")
        func keyRotation() async throws {
            let database = try await StorageTestDatabase.make()
            let old = SessionEncryptionKey.random()
            let new = SessionEncryptionKey.random()
            _ = try await database.withStorage(keys: [old]) { storage in
                try await storage.insert(id: "s", document: bytes("under the old key"), lifetimes: lifetimes, address: nil)
            }
            try await database.withStorage(keys: [new]) { storage async throws in
                #expect(try await storage.load(id: "s") == .unreadable(.noMatchingKey), "the new key alone cannot open it yet")
            }
            try await database.withStorage(keys: [new, old]) { storage async throws in
                #expect(try await storage.load(id: "s") == .found(StoredSession(document: bytes("under the old key"), version: 1)))
                #expect(try await storage.save(id: "s", document: bytes("under the new key"), expectedVersion: 1) == .saved(version: 2))
            }
            try await database.withStorage(keys: [new]) { storage async throws in
                #expect(
                    try await storage.load(id: "s") == .found(StoredSession(document: bytes("under the new key"), version: 2)),
                    "after its save the old key is no longer needed"
                )
            }
        }

        @Test("a pg_dump of the tables holds no canary from a stored session or delivery, no session id and no key")
        func dumpHoldsNoSecret() async throws {
            let database = try await StorageTestDatabase.make()
            let canary = "canary-\(UUID().uuidString)"
            let tokenCanary = "token-canary-\(UUID().uuidString)"
            let sessionID = SecureToken.make()
            try await database.withDatabase(keys: [key]) { handle in
                let storage = PostgresSessionStorage(database: handle)
                try await storage.insert(id: sessionID, document: bytes(#"{"password":"\#(canary)"}"#), lifetimes: lifetimes, address: "203.0.113.7")
                let outbox = PostgresOutbox(database: handle)
                try await outbox.enqueue(
                    [
                        OutboxDelivery(
                            id: "delivery-1",
                            sink: "https://hooks.example.com/t",
                            outcome: "success",
                            document: bytes(#"{"accessToken":"\#(tokenCanary)"}"#)
                        )
                    ],
                    claimingFor: nil
                )
            }
            let dump = try await database.server.dump(database: database.name)
            // bytea columns are dumped in hex: look for the hex of the canaries too.
            for secret in [canary, tokenCanary] {
                let hex = secret.utf8.map { String(format: "%02x", $0) }.joined()
                #expect(!dump.contains(secret) && !dump.lowercased().contains(hex), "the dump holds \(secret) in the clear")
            }
            #expect(!dump.contains(sessionID), "the dump holds a session id")
            #expect(!dump.contains(key.base64) && !dump.contains(Data(key.bytes).map { String(format: "%02x", $0) }.joined()))
            #expect(
                dump.contains("203.0.113.7") && dump.contains("hooks.example.com") && dump.contains("haapi_gateway_sessions"),
                "the dump is of these tables"
            )
        }
    }
}
