import Foundation
import HAAPIGateway

/// Whose "now" the database's expiry and lease comparisons use. By default the database's own (`now()`), one clock for
/// every replica, so that a replica whose clock runs ahead neither ends others' sessions early nor takes over their
/// deliveries' leases. Tests inject a clock they move by hand, so that nothing waits for time to pass.
///
/// Every statement compares against `COALESCE($n, now())` with this clock's reading bound as `$n`: nil is the database's.
package struct StorageClock: Sendable {
    private let reading: (@Sendable () -> Date)?

    /// The database's own clock (`now()`).
    package static let database = StorageClock(reading: nil)

    /// A clock read by calling `now` (tests).
    /// - Parameter now: Returns the current time.
    package static func reading(_ now: @escaping @Sendable () -> Date) -> StorageClock {
        StorageClock(reading: now)
    }

    /// The time to bind, or nil for the database's `now()`.
    func now() -> Date? { reading?() }
}
