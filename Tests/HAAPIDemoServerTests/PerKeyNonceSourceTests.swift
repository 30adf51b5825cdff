import Foundation
import Testing

@testable import HAAPIDemoServer

/// The per-key nonce store on its own: scope, rotation, expiry and the memory bound.
@Suite struct PerKeyNonceSourceTests {
    @Test func aNonceIsAcceptedOnlyForItsKey() {
        let source = PerKeyDPoPNonceSource(lifetime: 60, capacity: 10)
        let nonceA = source.current(for: "key-a"), nonceB = source.current(for: "key-b")
        #expect(nonceA != nonceB)
        #expect(source.accepts(nonceA, keyThumbprint: "key-a"))
        #expect(!source.accepts(nonceB, keyThumbprint: "key-a"))
        #expect(!source.accepts(nonceA, keyThumbprint: "key-unknown"))
        #expect(!source.accepts(nil, keyThumbprint: "key-a"))
        #expect(source.current(for: "key-a") == nonceA, "stable within its period")
    }

    @Test func noncesRotateAndExpire() {
        let start = Date()
        let source = PerKeyDPoPNonceSource(lifetime: 10, capacity: 10)
        let first = source.current(for: "key", now: start)
        let second = source.current(for: "key", now: start.addingTimeInterval(11))
        #expect(second != first)
        #expect(source.accepts(first, keyThumbprint: "key", now: start.addingTimeInterval(12)), "the previous nonce, one more period")
        #expect(!source.accepts(second, keyThumbprint: "key", now: start.addingTimeInterval(40)), "past two periods")
    }

    @Test func memoryIsBoundedByTheCapacity() {
        let start = Date()
        let source = PerKeyDPoPNonceSource(lifetime: 10, capacity: 3)
        for index in 0..<50 { _ = source.current(for: "key-\(index)", now: start.addingTimeInterval(Double(index) / 100)) }
        #expect(source.keyCount <= 3)
        #expect(
            source.accepts(source.current(for: "key-49", now: start.addingTimeInterval(1)), keyThumbprint: "key-49", now: start.addingTimeInterval(1))
        )
        // Expired keys go first when the store is full.
        let later = start.addingTimeInterval(100)
        _ = source.current(for: "fresh", now: later)
        #expect(source.keyCount == 1)
    }
}
