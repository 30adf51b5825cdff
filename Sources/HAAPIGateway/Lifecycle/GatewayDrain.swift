import Synchronization

/// Whether the gateway is draining before it stops: readiness answers 503 and new sign-ins are refused with a page,
/// while sign-ins already under way go on. Shared by the routes and ``GatewayDrainService``.
public final class GatewayDrain: Sendable {
    private let draining = Atomic<Bool>(false)
    private let serving = Atomic<Bool>(false)

    /// A gateway that is not draining.
    public init() {}

    /// Whether draining has begun.
    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Begins draining (idempotent).
    public func begin() { draining.store(true, ordering: .relaxed) }

    /// Whether the gateway has listened for browsers: a gateway that never did has nothing to drain.
    public var hasServed: Bool { serving.load(ordering: .relaxed) }

    /// Records that the gateway listens (called once its listener runs).
    public func markServing() { serving.store(true, ordering: .relaxed) }
}
