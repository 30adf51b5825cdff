import Synchronization

/// Whether the gateway is draining before it stops: readiness answers 503 and new sign-ins are refused with a page,
/// while sign-ins already under way go on. Shared by the routes and ``GatewayDrainService``.
public final class GatewayDrain: Sendable {
    private let draining = Atomic<Bool>(false)

    /// A gateway that is not draining.
    public init() {}

    /// Whether draining has begun.
    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Begins draining (idempotent).
    public func begin() { draining.store(true, ordering: .relaxed) }
}
