import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension StorageContract {
    /// Runs `body` with a fresh storage of `backend`'s kind, its session store under `settings`, sign-ins to store and the
    /// storage's clock.
    static func withSessions(
        _ backend: any StorageContractBackend,
        settings: SessionSettings = SessionSettings(),
        _ body: (any SessionStore<SignInSession>, StorageContractSignIns, TestClock) async throws -> Void
    ) async throws {
        try await StorageContractSignIns.with { signIns in
            try await withStorage(backend) { storage, clock in
                let store = storage.sessionStore(settings: .fixed(settings), restorer: signIns.restorer)
                try await body(store, signIns, clock)
            }
        }
    }

    /// Whether `duration` is `target`, within the milliseconds a database rounds to.
    static func near(_ duration: Duration?, _ target: Duration) -> Bool {
        duration.map { (target - .milliseconds(50)...target + .milliseconds(50)).contains($0) } ?? false
    }

    /// A sign-in stored by `add` is found by its id for every use; what a request did to it is kept at check-in; a
    /// removed one, or an id never stored, is absent.
    static func sessionsAreStoredCheckedOutAndSaved(_ backend: any StorageContractBackend) async throws {
        try await withSessions(backend) { store, signIns, _ in
            let added = try #require(try await store.add(try await signIns.begun(), address: "192.0.2.1"), "stored below the cap")
            try await store.checkIn(added)
            #expect(outcome(try await store.checkOut(id: "never-stored", for: .reading)) == "absent")
            guard let acting = found(try await store.checkOut(id: added.id, for: .acting), "checked out to act") else { return }
            #expect(await StorageContractSignIns.notices(of: acting.session).isEmpty)
            await acting.session.add(notice: .gateway(.signInRestarted))
            try await store.checkIn(acting)
            for use in [SessionUse.reading, .polling, .acting] {
                guard let again = found(try await store.checkOut(id: added.id, for: use), "checked out (\(use))") else { return }
                #expect(await StorageContractSignIns.notices(of: again.session) == [.gateway(.signInRestarted)], "the change was kept (\(use))")
                try await store.checkIn(again)
            }
            // Checked in twice: the second keeps what changed since, and holds nothing.
            guard let twice = found(try await store.checkOut(id: added.id, for: .acting), "checked out again") else { return }
            try await store.checkIn(twice)
            try await store.checkIn(twice)
            guard let free = found(try await store.checkOut(id: added.id, for: .polling), "free after its check-ins") else { return }
            try await store.checkIn(free)
            await store.remove(id: added.id)
            #expect(outcome(try await store.checkOut(id: added.id, for: .reading)) == "absent", "removed")
            #expect(try await store.idleDuration(id: added.id) == nil)
        }
    }

    /// A rotation moves the sign-in, as the request left it, to a fresh id: the old id finds nothing. A sign-in removed
    /// meanwhile is not rotated (nil).
    static func sessionsRotateToAFreshID(_ backend: any StorageContractBackend) async throws {
        try await withSessions(backend) { store, signIns, _ in
            let added = try #require(try await store.add(try await signIns.begun(), address: nil))
            let oldID = added.id
            try await store.checkIn(added)
            guard let acting = found(try await store.checkOut(id: oldID, for: .acting), "checked out to act") else { return }
            await acting.session.add(notice: .gateway(.signInRestarted))
            let newID = try #require(try await store.rotate(acting), "rotated")
            #expect(newID != oldID)
            #expect(acting.id == newID, "the checkout has the new id")
            #expect(outcome(try await store.checkOut(id: oldID, for: .reading)) == "absent", "the old id finds nothing")
            guard let moved = found(try await store.checkOut(id: newID, for: .acting), "found under the new id") else { return }
            #expect(await StorageContractSignIns.notices(of: moved.session) == [.gateway(.signInRestarted)], "as the request left it")
            try await store.checkIn(moved)

            let other = try #require(try await store.add(try await signIns.begun(), address: nil))
            try await store.checkIn(other)
            guard let held = found(try await store.checkOut(id: other.id, for: .acting), "the other checked out") else { return }
            await store.remove(id: other.id)
            #expect(try await store.rotate(held) == nil, "removed meanwhile: nothing to rotate")
            #expect(outcome(try await store.checkOut(id: other.id, for: .reading)) == "absent")
        }
    }

    /// A sign-in left alone longer than `idleTimeoutSeconds` is gone; every checkout is a use that keeps it alive;
    /// `idleDuration` is the time since the last use, by the storage's clock.
    static func sessionsExpireWhenIdle(_ backend: any StorageContractBackend) async throws {
        try await withSessions(backend, settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100)) { store, signIns, clock in
            let added = try #require(try await store.add(try await signIns.begun(), address: nil))
            try await store.checkIn(added)
            clock.advance(.seconds(4))
            let idle = try await store.idleDuration(id: added.id)
            #expect(near(idle, .seconds(4)), "left alone 4 s: \(String(describing: idle))")
            clock.advance(.seconds(5))
            for use in [SessionUse.reading, .polling, .acting] {
                guard let used = found(try await store.checkOut(id: added.id, for: use), "used within its idle time (\(use))") else { return }
                try await store.checkIn(used)
                clock.advance(.seconds(9))
            }
            let sinceUse = try await store.idleDuration(id: added.id)
            #expect(near(sinceUse, .seconds(9)), "a use starts it again: \(String(describing: sinceUse))")
            clock.advance(.seconds(2))
            #expect(outcome(try await store.checkOut(id: added.id, for: .reading)) == "absent", "idle 11 s")
            #expect(try await store.idleDuration(id: added.id) == nil)
            #expect(try await store.idleDuration(id: "never-stored") == nil)
        }
    }

    /// A sign-in older than `absoluteTimeoutSeconds` is gone, however often it is used.
    static func sessionsExpireAtTheirAbsoluteLifetime(_ backend: any StorageContractBackend) async throws {
        try await withSessions(backend, settings: SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 25)) { store, signIns, clock in
            let added = try #require(try await store.add(try await signIns.begun(), address: nil))
            try await store.checkIn(added)
            for _ in 0..<2 {
                clock.advance(.seconds(9))
                guard let used = found(try await store.checkOut(id: added.id, for: .acting), "within its lifetime") else { return }
                try await store.checkIn(used)
            }
            clock.advance(.seconds(9))
            #expect(outcome(try await store.checkOut(id: added.id, for: .acting)) == "absent", "27 s old")
        }
    }

    /// At `maximumSessions`, a new sign-in pushes out one nobody came back to (counted in `evictions`), and is refused
    /// (nil, `hasRoom` false) when every stored one is in use, which all keep working; an expired one makes room. The
    /// count, read a second after the last change, is the sessions held.
    static func sessionsAreCapped(_ backend: any StorageContractBackend) async throws {
        let settings = SessionSettings(idleTimeoutSeconds: 10, absoluteTimeoutSeconds: 100, maximumSessions: 2)
        try await withSessions(backend, settings: settings) { store, signIns, clock in
            let first = try #require(try await store.add(try await signIns.begun(), address: "192.0.2.1"))
            try await store.checkIn(first)
            clock.advance(.seconds(6))
            let untouched = try #require(try await store.add(try await signIns.begun(), address: "192.0.2.2"))
            try await store.checkIn(untouched)
            guard let used = found(try await store.checkOut(id: first.id, for: .reading), "the first") else { return }
            try await store.checkIn(used)
            #expect(try await store.hasRoom(), "one nobody came back to can be pushed out")
            let second = try #require(try await store.add(try await signIns.begun(), address: "192.0.2.1"), "pushes out the untouched one")
            try await store.checkIn(second)
            #expect(await store.evictions == 1)
            #expect(outcome(try await store.checkOut(id: untouched.id, for: .reading)) == "absent", "pushed out")
            guard let again = found(try await store.checkOut(id: second.id, for: .reading), "the second") else { return }
            try await store.checkIn(again)
            // Both in use: refused, nothing pushed out.
            #expect(try await store.hasRoom() == false)
            #expect(try await store.add(try await signIns.begun(), address: "192.0.2.3") == nil, "refused at the cap")
            #expect(await store.evictions == 1)
            try await Task.sleep(for: .milliseconds(1100))
            #expect(await store.count == 2)
            for id in [first.id, second.id] {
                guard let kept = found(try await store.checkOut(id: id, for: .acting), "kept at the cap") else { return }
                try await store.checkIn(kept)
            }
            // The first is left alone past its idle time: room again.
            clock.advance(.seconds(6))
            guard let touched = found(try await store.checkOut(id: second.id, for: .reading), "the second, used") else { return }
            try await store.checkIn(touched)
            clock.advance(.seconds(5))
            #expect(try await store.hasRoom(), "the first expired")
            let third = try #require(try await store.add(try await signIns.begun(), address: "192.0.2.3"), "stored in the expired one's room")
            try await store.checkIn(third)
            #expect(await store.evictions == 1, "an expired session is not an eviction")
            guard let last = found(try await store.checkOut(id: second.id, for: .reading), "the second, still kept") else { return }
            try await store.checkIn(last)
        }
    }
}
