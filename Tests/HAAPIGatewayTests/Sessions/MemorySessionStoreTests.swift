import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

@Suite("Memory session store lifetimes and cap")
struct MemorySessionStoreTests {
    @Test("a session idle longer than idleTimeoutSeconds is gone; use keeps it alive")
    func idleTimeout() async throws {
        let clock = TestClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100), now: { clock.instant })
        let id = try #require(await store.insert("a"))
        clock.advance(.seconds(9))
        #expect(await store.session(id: id) == "a")
        clock.advance(.seconds(9))
        #expect(await store.session(id: id) == "a", "touched 9 s ago")
        clock.advance(.seconds(11))
        #expect(await store.session(id: id) == nil)
    }

    @Test("a session older than absoluteTimeoutSeconds is gone even when in use")
    func absoluteTimeout() async throws {
        let clock = TestClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 25), now: { clock.instant })
        let id = try #require(await store.insert("a"))
        for _ in 0..<2 {
            clock.advance(.seconds(9))
            #expect(await store.session(id: id) == "a")
        }
        clock.advance(.seconds(9))
        #expect(await store.session(id: id) == nil)
    }

    @Test("sessions left behind are swept out by a later insert after the sweep interval, below the cap too")
    func expiredSessionsAreSweptOut() async throws {
        let clock = TestClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100), now: { clock.instant })
        for name in ["a", "b", "c"] { _ = try #require(await store.insert(name)) }
        clock.advance(.seconds(25))
        let alive = try #require(await store.insert("d"))
        #expect(await store.count == 4, "a, b and c are expired, but the sweep interval has not passed")
        clock.advance(MemorySessionStore<String>.sweepInterval - .seconds(25))
        _ = try #require(await store.insert("e"))
        #expect(await store.count == 2, "the sweep dropped a, b and c and kept d")
        #expect(await store.session(id: alive) == "d")
    }

    @Test("at the cap, when every session is in use, a new one is refused and every stored one keeps working; an expired one makes room")
    func capRefusesNewSessions() async throws {
        let clock = TestClock()
        let store = MemorySessionStore<String>(
            settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100, maximumSessions: 2),
            now: { clock.instant }
        )
        let first = try #require(await store.insert("first"))
        clock.advance(.seconds(6))
        let second = try #require(await store.insert("second"))
        // Both come back: both are in use.
        #expect(await store.session(id: first) == "first")
        #expect(await store.session(id: second) == "second")
        #expect(await store.hasRoom() == false)
        #expect(await store.insert("third") == nil, "refused, not evicting a sign-in under way")
        #expect(await store.count == 2)
        #expect(await store.session(id: first) == "first")
        #expect(await store.session(id: second) == "second")
        clock.advance(.seconds(9))
        _ = await store.session(id: second)
        clock.advance(.seconds(2))
        // `first` was last used 11 s ago: expired, so there is room again.
        #expect(await store.hasRoom())
        let third = try #require(await store.insert("third"))
        #expect(await store.session(id: third) == "third")
        #expect(await store.session(id: second) == "second")
        #expect(await store.evictions == 0)
    }

    @Test("at the cap a new session pushes out one nobody came back to, the oldest of the address holding most of them; used ones stay")
    func capEvictsUnusedSessionsOfTheBusiestAddress() async throws {
        let store = MemorySessionStore<String>(settings: SessionSettings(maximumSessions: 5))
        let person = try #require(await store.insert("person", address: "192.0.2.1"))
        let flood = [
            try #require(await store.insert("flood-1", address: "198.51.100.7")),
            try #require(await store.insert("flood-2", address: "198.51.100.7")),
        ]
        let used = try #require(await store.insert("used", address: "198.51.100.7"))
        #expect(await store.session(id: used) == "used")
        let other = try #require(await store.insert("other", address: "203.0.113.9"))
        // Full: the flood address holds two never-used sessions, the person's and the other address one each.
        let newer = try #require(await store.insert("newer", address: "203.0.113.9"), "pushes out the flood's oldest unused session")
        #expect(await store.count == 5)
        #expect(await store.session(id: flood[0]) == nil)
        #expect(await store.evictions == 1)
        // The person comes back; 203.0.113.9 now holds the most unused ones (other, newer): its oldest goes.
        #expect(await store.session(id: person) == "person")
        let again = try #require(await store.insert("again", address: "198.51.100.7"))
        #expect(await store.session(id: other) == nil)
        #expect(await store.evictions == 2)
        #expect(await store.session(id: used) == "used")
        #expect(await store.session(id: person) == "person")
        // Once every session is in use, nothing is pushed out: a new one is refused.
        for id in [flood[1], newer, again] { #expect(await store.session(id: id) != nil) }
        #expect(await store.hasRoom() == false)
        #expect(await store.insert("refused", address: "198.51.100.7") == nil)
        #expect(await store.count == 5)
    }

    @Test("rotation moves the session to a new id; the old id is dead; ids are unique and ≥ 256 bits")
    func rotation() async throws {
        let store = MemorySessionStore<String>(settings: SessionSettings())
        let id = try #require(await store.insert("a"))
        let rotated = await store.rotate(id: id)
        #expect(rotated != nil && rotated != id)
        #expect(await store.session(id: id) == nil)
        #expect(await store.session(id: rotated ?? "") == "a")
        #expect(id.count >= 43)
    }
}
