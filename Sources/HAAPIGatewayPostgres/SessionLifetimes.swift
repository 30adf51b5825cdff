import HAAPIGateway

/// How long a stored session lives: at most ``absolute`` after it was stored, and at most ``idle`` after it was last
/// loaded or saved (`sessions.absoluteTimeoutSeconds`, `sessions.idleTimeoutSeconds`).
package struct SessionLifetimes: Sendable, Equatable {
    /// The longest a session lives, used or not.
    package var absolute: Duration
    /// The longest a session lives unused.
    package var idle: Duration

    /// Creates lifetimes.
    /// - Parameters:
    ///   - absolute: The longest a session lives.
    ///   - idle: The longest it lives unused.
    package init(absolute: Duration, idle: Duration) {
        self.absolute = absolute
        self.idle = idle
    }

    /// The lifetimes of `settings`.
    package init(_ settings: SessionSettings) {
        self.init(absolute: .seconds(settings.absoluteTimeoutSeconds), idle: .seconds(settings.idleTimeoutSeconds))
    }
}

extension Duration {
    /// The duration in seconds, as SQL intervals are bound (`$n * interval '1 second'`).
    var storageSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
