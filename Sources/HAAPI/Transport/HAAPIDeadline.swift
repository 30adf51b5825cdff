/// A deadline for every upstream request made inside an operation, as a whole: each request gets the configured
/// timeout or what is left until the deadline, whichever is shorter, and none is sent once the deadline has passed.
///
/// A server bounds one person's request this way, including the chain of automatic steps behind it (redirections,
/// continue, finished polling), instead of the timeout of each call separately.
public enum HAAPIDeadline {
    /// The deadline in effect for the current task, if any.
    @TaskLocal public static var current: ContinuousClock.Instant?

    /// Runs `operation` with every upstream request it makes bounded by `duration` from now as a whole (or by an
    /// earlier deadline already in effect).
    public static func within<T>(
        _ duration: Duration,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> T
    ) async rethrows -> T {
        let deadline = ContinuousClock.now + duration
        return try await $current.withValue(current.map { min($0, deadline) } ?? deadline, operation: operation, isolation: isolation)
    }

    /// The time a request may take now: `timeout`, or less when the deadline is nearer; nil when it has passed.
    static func remaining(of timeout: Duration) -> Duration? {
        guard let current else { return timeout }
        let left = current - .now
        return left > .zero ? min(timeout, left) : nil
    }
}
