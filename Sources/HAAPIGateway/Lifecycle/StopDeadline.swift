import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bounds a stop in time, whatever the database, the upstream and the sinks do: once the drain is over (``start()``),
/// the rest of the stop (requests under way, the last callback deliveries, releasing claims, closing the database's
/// connections) has `server.stopSeconds`. What has not ended by then is named, one line each, and the process exits
/// with ``cutShortStatus``.
///
/// The parts of the stop say what of theirs is unfinished (``watch(_:unfinished:)``); they are asked only at the
/// deadline. The deadline is kept by a thread of its own, not a task: it fires even when every thread of the
/// cooperative pool waits on something that never answers.
public final class StopDeadline: Sendable {
    /// The exit status of a stop cut short at its deadline (`EX_SOFTWARE`).
    public static let cutShortStatus: Int32 = 70

    /// How long the stop may take after the drain.
    public let seconds: Int
    /// What bounds the stop, as the cut-short line names it (`server.stopSeconds after the drain`, `--stop-seconds`).
    private let limit: String
    private let logger: Logger
    private let exit: @Sendable (Int32) -> Void
    private let parts = Mutex<[(name: String, unfinished: @Sendable () -> String?)]>([])
    private let started = Mutex<ContinuousClock.Instant?>(nil)

    /// A deadline `seconds` after ``start()``.
    /// - Parameters:
    ///   - seconds: How long the stop may take once the drain is over (`server.stopSeconds`).
    ///   - logger: Where what was cut short is said.
    ///   - limit: What bounds the stop, as the cut-short line names it; `server.stopSeconds` after the drain by default.
    ///   - exit: Ends the process (tests replace it); the default leaves at once, without running exit handlers that
    ///     could wait on what is stuck.
    public init(
        seconds: Int,
        logger: Logger,
        limit: String = "\(ConfigurationKey.serverStopSeconds.path) after the drain",
        exit: @escaping @Sendable (Int32) -> Void = { _exit($0) }
    ) {
        self.seconds = seconds
        self.limit = limit
        self.logger = logger
        self.exit = exit
    }

    /// When the stop must be over; nil until ``start(allowing:)``.
    public var deadline: ContinuousClock.Instant? {
        started.withLock { $0.map { $0 + .seconds(seconds) } }
    }

    /// Adds a part of the stop: at the deadline, `unfinished` says what of it has not ended (nil: nothing). It must not
    /// block: it is called on the deadline's own thread.
    public func watch(_ name: String, unfinished: @escaping @Sendable () -> String?) {
        parts.withLock { $0.append((name, unfinished)) }
    }

    /// Starts the clock (once; later calls do nothing): the stop must be over `drain` plus ``seconds`` from now. A stop
    /// signal starts it with the drain still ahead (`server.drainSeconds`, ``StopSignalWatch``), so that the deadline
    /// does not wait for the drain's own task to end, which a wedged pool would never let it do; the drain's end then
    /// finds it started.
    public func start(allowing drain: Duration = .zero) {
        let begins = started.withLock { instant -> Bool in
            guard instant == nil else { return false }
            instant = .now + drain
            return true
        }
        guard begins else { return }
        let wait = drain + .seconds(seconds)
        Thread.detachNewThread { [self] in
            let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
            Thread.sleep(forTimeInterval: seconds)  // off the pool: a thread of its own, which a wedged pool cannot hold
            cutShort()
        }
    }

    /// Names what has not ended, one line each, and ends the process.
    func cutShort() {
        let unfinished = parts.withLock { $0 }.compactMap { part in part.unfinished().map { (part.name, $0) } }
        logger.error(
            "the stop took longer than \(limit); exiting with what has not ended",
            metadata: ["seconds": .stringConvertible(seconds), "unfinished": .stringConvertible(unfinished.count)]
        )
        for (name, what) in unfinished {
            logger.error("stopped before it ended", metadata: ["part": "\(name)", "left": "\(what)"])
        }
        exit(Self.cutShortStatus)
    }
}
