import Foundation
import Synchronization

/// A wall clock the test moves by hand (the storage's expiry and leases compare against it).
final class ManualWallClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_900_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(_ duration: Duration) {
        current.withLock { $0 += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }
    }
}
