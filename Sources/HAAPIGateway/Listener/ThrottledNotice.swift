import Logging
import Synchronization

/// A log line for an event that may come in floods (a refused connection, a timed-out request): the first occurrence is
/// logged at `notice` in full, and after it at most one summary line per interval, counting the occurrences since the
/// last line. After a quiet interval the next occurrence is logged in full again.
///
/// A summary is written when the interval after the last line ends (a scheduled flush), so a flood that stops is still
/// counted in the log.
public final class ThrottledNotice: Sendable {
    /// Runs an action after a delay (tests run it by hand).
    public typealias Scheduler = @Sendable (_ delay: Duration, _ action: @escaping @Sendable () -> Void) -> Void

    private struct State {
        /// When the last line was written.
        var lastLine: ContinuousClock.Instant?
        /// Occurrences since the last line, not logged yet.
        var unlogged = 0
        /// The metadata of the latest of them.
        var latestMetadata: Logger.Metadata = [:]
        /// Whether a flush is scheduled for the end of the interval.
        var flushScheduled = false
    }

    /// What one occurrence leads to.
    private enum Decision {
        /// Its own line, in full.
        case logInFull
        /// A count, and a flush scheduled after the delay.
        case flushAfter(Duration)
        /// A count only (a flush is scheduled already).
        case count
    }

    /// Where the lines go.
    private let logger: Logger
    /// At most one line per interval.
    private let interval: Duration
    /// The clock.
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Runs the flush at the end of an interval.
    private let schedule: Scheduler
    /// The summary line for a count of occurrences in about so many seconds.
    private let summary: @Sendable (_ count: Int, _ seconds: Int) -> String
    /// What was logged and counted.
    private let state = Mutex(State())

    /// A throttled notice.
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - interval: At most one line per interval (default 10 s).
    ///   - now: The clock (tests inject one).
    ///   - schedule: Runs the flush at the end of an interval (default: a task that sleeps).
    ///   - summary: The summary line for `count` occurrences in about `seconds` seconds.
    public init(
        logger: Logger,
        interval: Duration = .seconds(10),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        schedule: @escaping Scheduler = ThrottledNotice.afterSleeping,
        summary: @escaping @Sendable (_ count: Int, _ seconds: Int) -> String
    ) {
        self.logger = logger
        self.interval = interval
        self.now = now
        self.schedule = schedule
        self.summary = summary
    }

    /// Runs `action` in a task after `delay`.
    public static let afterSleeping: Scheduler = { delay, action in
        Task {
            try? await Task.sleep(for: delay)
            action()
        }
    }

    /// Records one occurrence: logs `line` when no line was written within the interval, else counts it for the summary.
    /// - Parameters:
    ///   - line: The full line (built only when it is logged).
    ///   - metadata: The occurrence's metadata (the peer address); a summary carries the latest one's.
    public func record(_ line: @autoclosure () -> String, metadata: Logger.Metadata = [:]) {
        let decision: Decision = state.withLock { state in
            let time = now()
            if !state.flushScheduled, state.lastLine.map({ time - $0 >= interval }) ?? true {
                state.lastLine = time
                return .logInFull
            }
            state.unlogged += 1
            state.latestMetadata = metadata
            guard !state.flushScheduled else { return .count }
            state.flushScheduled = true
            return .flushAfter(max(.zero, (state.lastLine ?? time) + interval - time))
        }
        switch decision {
        case .logInFull: logger.notice("\(line())", metadata: metadata)
        case .flushAfter(let delay): schedule(delay) { [self] in flush() }
        case .count: break
        }
    }

    /// Writes the summary of the occurrences since the last line, if any (the scheduled flush calls this).
    public func flush() {
        let pending: (count: Int, seconds: Int, metadata: Logger.Metadata)? = state.withLock { state in
            state.flushScheduled = false
            guard state.unlogged > 0 else { return nil }
            let time = now()
            let elapsed = state.lastLine.map { time - $0 } ?? interval
            let pending = (
                state.unlogged, Int((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18).rounded()),
                state.latestMetadata
            )
            state.unlogged = 0
            state.lastLine = time
            return pending
        }
        guard let pending else { return }
        logger.notice("\(summary(pending.count, pending.seconds))", metadata: pending.metadata)
    }
}
