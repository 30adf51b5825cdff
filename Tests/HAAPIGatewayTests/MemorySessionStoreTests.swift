import Foundation
import Testing

@testable import HAAPIGateway

@Suite("Memory session store lifetimes and cap")
struct MemorySessionStoreTests {
    @Test("a session idle longer than idleTimeoutSeconds is gone; use keeps it alive")
    func idleTimeout() async throws {
        let clock = ManualClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100), now: { clock.now })
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
        let clock = ManualClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 25), now: { clock.now })
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
        let clock = ManualClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100), now: { clock.now })
        for name in ["a", "b", "c"] { _ = try #require(await store.insert(name)) }
        clock.advance(.seconds(25))
        let alive = try #require(await store.insert("d"))
        #expect(await store.count == 4, "a, b and c are expired, but the sweep interval has not passed")
        clock.advance(MemorySessionStore<String>.sweepInterval - .seconds(25))
        _ = try #require(await store.insert("e"))
        #expect(await store.count == 2, "the sweep dropped a, b and c and kept d")
        #expect(await store.session(id: alive) == "d")
    }

    @Test("at the cap a new session is refused and every stored one keeps working; an expired one makes room")
    func capRefusesNewSessions() async throws {
        let clock = ManualClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100, maximumSessions: 2), now: { clock.now })
        let first = try #require(await store.insert("first"))
        clock.advance(.seconds(6))
        let second = try #require(await store.insert("second"))
        #expect(await store.hasRoom() == false)
        #expect(await store.insert("third") == nil, "refused, not evicting a sign-in under way")
        #expect(await store.count == 2)
        #expect(await store.session(id: first) == "first")
        #expect(await store.session(id: second) == "second")
        clock.advance(.seconds(9))
        _ = await store.session(id: second)
        clock.advance(.seconds(2))
        // `first` was last used 17 s ago: expired, so there is room again.
        #expect(await store.hasRoom())
        let third = try #require(await store.insert("third"))
        #expect(await store.session(id: third) == "third")
        #expect(await store.session(id: second) == "second")
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
