import Foundation

/// A scheduler for ``ThrottledNotice`` that keeps what it is asked to run; the test runs it by hand.
final class ManualScheduler: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [(delay: Duration, action: @Sendable () -> Void)] = []

    /// The delays asked for so far, in order.
    var delays: [Duration] { lock.withLock { actions.map(\.delay) } }

    /// How many actions wait to be run.
    var pending: Int { lock.withLock { actions.count } }

    /// The function to hand to ``ThrottledNotice``.
    var schedule: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void {
        { delay, action in self.lock.withLock { self.actions.append((delay, action)) } }
    }

    /// Runs every action waiting, in order.
    func runAll() {
        let due = lock.withLock {
            defer { actions.removeAll() }
            return actions
        }
        for entry in due { entry.action() }
    }
}
