import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a ``StopDeadline`` when SIGTERM or SIGINT arrives, from a dispatch queue of its own rather than from a task:
/// a process whose tasks cannot stop it (a request waiting on a silent upstream, or tasks that no longer run) still
/// ends within the deadline, naming what had not ended. swift-service-lifecycle's graceful shutdown, which the same
/// signals trigger, runs beside it; a stop that ends in time exits before the deadline does.
package final class StopSignalWatch: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    /// Watches `signals` (SIGTERM and SIGINT by default) until released.
    /// - Parameters:
    ///   - deadline: Started at the first of them.
    ///   - drain: The drain still ahead when the signal comes (`server.drainSeconds` for `serve`; none for `login`): the
    ///     deadline falls that much later.
    ///   - signals: The signals that start it.
    package init(_ deadline: StopDeadline, allowing drain: Duration = .zero, signals: [Int32] = [SIGTERM, SIGINT]) {
        let queue = DispatchQueue(label: "haapi-gateway.stop-signals")
        sources = signals.map { number in
            // A signal source needs the signal's default action (ending the process at once) off, as swift-service-lifecycle
            // turns it off for its own sources.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { deadline.start(allowing: drain) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
