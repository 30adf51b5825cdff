import Logging

/// What the connection guards report when they bite: a metric for every connection refused or closed, and a log line
/// per reason, throttled (``ThrottledNotice``: the first in full with the peer address and the bound, then at most one
/// summary per 10 s), so a flood of connections cannot flood the log.
public struct ConnectionNotices: Sendable {
    /// Where refusals and time-outs are counted.
    private let metrics: GatewayMetrics
    /// The refusal lines, one throttle per bound.
    private let refusals: [ConnectionBound: ThrottledNotice]
    /// The time-out lines.
    private let timeouts: ThrottledNotice

    /// Notices for one listener.
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - metrics: Where refusals and timeouts are counted.
    ///   - interval: At most one line per reason per interval (default 10 s).
    ///   - now: The clock (tests inject one).
    ///   - schedule: Runs the summaries (tests run them by hand).
    public init(
        logger: Logger,
        metrics: GatewayMetrics,
        interval: Duration = .seconds(10),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        schedule: @escaping ThrottledNotice.Scheduler = ThrottledNotice.afterSleeping
    ) {
        self.metrics = metrics
        var refusals: [ConnectionBound: ThrottledNotice] = [:]
        for bound in ConnectionBound.allCases {
            refusals[bound] = ThrottledNotice(logger: logger, interval: interval, now: now, schedule: schedule) { count, seconds in
                "connection refused \(count) more \(count == 1 ? "time" : "times") in \(seconds) s (\(bound.key.path))"
            }
        }
        self.refusals = refusals
        self.timeouts = ThrottledNotice(logger: logger, interval: interval, now: now, schedule: schedule) { count, seconds in
            "connection closed \(count) more \(count == 1 ? "time" : "times") in \(seconds) s: request not complete in time (\(ConfigurationKey.serverRequestTimeoutSeconds.path))"
        }
    }

    /// A connection from `peer` was refused because `bound` was full with `open` connections.
    public func refused(_ bound: ConnectionBound, open: Int, peer: String?) {
        metrics.connectionRefused(bound)
        let from = peer ?? "an address unknown"
        let line: String =
            switch bound {
            case .perAddress: "connection refused: \(open) connections from \(from) (\(bound.key.path))"
            case .total: "connection refused: \(open) connections open, one more from \(from) (\(bound.key.path))"
            }
        refusals[bound]?.record(line, metadata: ["peer": "\(from)"])
    }

    /// A connection from `peer` was closed because it did not deliver a whole request within `seconds`.
    public func timedOut(after seconds: Int, peer: String?) {
        metrics.connectionTimedOut()
        let from = peer ?? "an address unknown"
        timeouts.record(
            "connection closed: request not complete within \(seconds) s (\(ConfigurationKey.serverRequestTimeoutSeconds.path)), from \(from)",
            metadata: ["peer": "\(from)"]
        )
    }
}
