import Foundation
import Testing

@testable import HAAPIGateway

@Suite("Memory session store lifetimes and cap")
struct MemorySessionStoreTests {
    @Test("a session idle longer than idleTimeoutSeconds is gone; use keeps it alive")
    func idleTimeout() async {
        let clock = ManualClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100), now: { clock.now })
        let id = await store.insert("a")
        clock.advance(.seconds(9))
        #expect(await store.session(id: id) == "a")
        clock.advance(.seconds(9))
        #expect(await store.session(id: id) == "a", "touched 9 s ago")
        clock.advance(.seconds(11))
        #expect(await store.session(id: id) == nil)
    }

    @Test("a session older than absoluteTimeoutSeconds is gone even when in use")
    func absoluteTimeout() async {
        let clock = ManualClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 25), now: { clock.now })
        let id = await store.insert("a")
        for _ in 0..<2 {
            clock.advance(.seconds(9))
            #expect(await store.session(id: id) == "a")
        }
        clock.advance(.seconds(9))
        #expect(await store.session(id: id) == nil)
    }

    @Test("at the cap, inserting evicts the longest-idle session")
    func capEvictsLongestIdle() async {
        let clock = ManualClock()
        let store = MemorySessionStore<String>(settings: SessionSettings(maximumSessions: 2), now: { clock.now })
        let first = await store.insert("first")
        clock.advance(.seconds(1))
        let second = await store.insert("second")
        clock.advance(.seconds(1))
        _ = await store.session(id: first)
        clock.advance(.seconds(1))
        let third = await store.insert("third")
        #expect(await store.count == 2)
        #expect(await store.session(id: second) == nil, "longest idle")
        #expect(await store.session(id: first) == "first")
        #expect(await store.session(id: third) == "third")
    }

    @Test("rotation moves the session to a new id; the old id is dead; ids are unique and ≥ 256 bits")
    func rotation() async {
        let store = MemorySessionStore<String>(settings: SessionSettings())
        let id = await store.insert("a")
        let rotated = await store.rotate(id: id)
        #expect(rotated != nil && rotated != id)
        #expect(await store.session(id: id) == nil)
        #expect(await store.session(id: rotated ?? "") == "a")
        #expect(id.count >= 43)
    }
}
