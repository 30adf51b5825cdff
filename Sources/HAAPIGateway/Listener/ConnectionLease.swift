import Synchronization

/// One admitted connection's place in ``ConnectionLimits``: released exactly once, when the connection closes (a second
/// release does nothing; a lease dropped without a release gives its place back then).
public final class ConnectionLease: Sendable {
    /// The counts the place is in.
    private let limits: ConnectionLimits
    /// The peer address the connection was counted under (`nil`: counted in the total only).
    public let address: String?
    /// Whether the place was given back.
    private let released = Atomic<Bool>(false)

    /// A place counted under `address` in `limits` (``ConnectionLimits/admit(from:)`` makes it).
    init(limits: ConnectionLimits, address: String?) {
        self.limits = limits
        self.address = address
    }

    /// Gives the connection's place back. Only the first call counts.
    /// - Returns: Whether this call released it (false when it was released before).
    @discardableResult
    public func release() -> Bool {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        limits.release(address: address)
        return true
    }

    /// Whether the place was given back.
    public var isReleased: Bool { released.load(ordering: .acquiring) }

    deinit { release() }
}
