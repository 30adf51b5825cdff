import Synchronization

/// A check whose answer is wanted at once (a readiness probe has a timeout of its own, and must not wait on a silent
/// database or upstream): the answer is a fresh one when the check ends within a short wait, else the last one the
/// check gave, while it goes on in the background for the next caller. One check runs at a time, however many ask.
final class LatestCheck<Value: Sendable>: Sendable {
    private struct State {
        var last: (at: ContinuousClock.Instant, value: Value)?
        var running: Task<Value, Never>?
    }

    private let check: @Sendable () async -> Value
    private let freshFor: Duration
    private let state = Mutex(State())

    /// - Parameters:
    ///   - freshFor: How long an answer is used without checking again.
    ///   - check: The check.
    init(freshFor: Duration, check: @escaping @Sendable () async -> Value) {
        self.freshFor = freshFor
        self.check = check
    }

    /// The check's answer: the last one when it is fresh; else a new one when it comes within `wait`, else the last one;
    /// nil when the check has not answered yet.
    func value(waitingAtMost wait: Duration) async -> Value? {
        let running: Task<Value, Never>
        switch begin() {
        case .fresh(let value): return value
        case .running(let task): running = task
        }
        let answered = await Self.first(of: running, within: wait)
        return answered ?? state.withLock { $0.last?.value }
    }

    private enum Begun {
        case fresh(Value)
        case running(Task<Value, Never>)
    }

    /// The fresh answer, or the check under way (started here when none was).
    private func begin() -> Begun {
        let now = ContinuousClock.now
        return state.withLock { state in
            if let last = state.last, now - last.at < freshFor { return .fresh(last.value) }
            if let running = state.running { return .running(running) }
            let task = Task { [self] in
                let value = await check()
                self.state.withLock { current in
                    current.last = (.now, value)
                    current.running = nil
                }
                return value
            }
            state.running = task
            return .running(task)
        }
    }

    /// The task's value if it comes within `wait`, else nil at once then (the task goes on).
    private static func first(of task: Task<Value, Never>, within wait: Duration) async -> Value? {
        let resumed = Mutex<CheckedContinuation<Value?, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            resumed.withLock { $0 = continuation }
            let resume: @Sendable (Value?) -> Void = { value in resumed.withLock { $0.take() }?.resume(returning: value) }
            Task { resume(await task.value) }
            Task {
                try? await Task.sleep(for: wait)
                resume(nil)
            }
        }
    }
}
