import HAAPIGateway
import Synchronization

/// Bounds database operations in time. PostgresNIO waits for a pooled connection, and for an answer, as long as it
/// takes; a person's page must not. Each operation runs in a task of its own and its caller gets the result, or a
/// time-out once its limit has passed, or a cancellation as soon as the caller is cancelled (a shutdown); then that
/// task is cancelled and left to end by itself (a query already sent finishes or fails on the server's side).
///
/// One watching task times out every operation of a database: it runs while an operation is pending, looking every
/// ``tick`` (a limit is met to within that), and ends when none is. A sleeping timer task per operation cost a task, a
/// timer that stayed scheduled until its limit after the operation ended, and a thread woken to end it, on every
/// statement of every request.
final class OperationDeadlines: Sendable {
    /// How often the watcher looks for operations past their limit.
    let tick: Duration

    private struct Pending: Sendable {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State: Sendable {
        var pending: [UInt64: Pending] = [:]
        var nextKey: UInt64 = 0
        var watching = false
    }

    private let state = Mutex(State())

    /// - Parameter tick: How often the watcher looks (default 50 ms).
    init(tick: Duration = .milliseconds(50)) {
        self.tick = tick
    }

    /// How many operations are pending (for tests).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Whether the watching task runs (for tests: it ends once nothing is pending).
    var isWatching: Bool { state.withLock { $0.watching } }

    /// The result of `operation`, or `timedOut` once `limit` has passed (to within ``tick``), or `cancelled` as soon as
    /// the calling task is cancelled.
    func run<Value: Sendable>(
        limit: Duration,
        timedOut: PostgresStorageError,
        cancelled: PostgresStorageError,
        _ operation: @escaping @Sendable () async throws(PostgresStorageError) -> Value
    ) async throws(PostgresStorageError) -> Value {
        let box = Mutex<Resumption<Value>?>(nil)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, PostgresStorageError>, Never>) in
                let resumption = Resumption(continuation)
                box.withLock { $0 = resumption }
                let work = Task {
                    do throws(PostgresStorageError) {
                        resumption.resume(.success(try await operation()))
                    } catch {
                        resumption.resume(.failure(error))
                    }
                }
                let key = watch(until: .now + limit) { resumption.resume(.failure(timedOut)) }
                resumption.onResume = { [self] in
                    forget(key)
                    work.cancel()
                }
                if Task.isCancelled { resumption.resume(.failure(cancelled)) }
            }
        } onCancel: {
            box.withLock { $0 }?.resume(.failure(cancelled))
        }
        return try outcome.get()
    }

    /// Registers an operation's limit; starts the watcher when it does not run.
    private func watch(until deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        let (key, start) = state.withLock { state in
            let key = state.nextKey
            state.nextKey &+= 1
            state.pending[key] = Pending(deadline: deadline, expire: expire)
            defer { state.watching = true }
            return (key, !state.watching)
        }
        if start { Task { await self.watchUntilIdle() } }
        return key
    }

    private func forget(_ key: UInt64) {
        _ = state.withLock { $0.pending.removeValue(forKey: key) }
    }

    /// Times out what passed its limit, every tick, until nothing is pending.
    private func watchUntilIdle() async {
        while true {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let expired: [Pending]? = state.withLock { state in
                guard !state.pending.isEmpty else {
                    state.watching = false
                    return nil
                }
                let due = state.pending.filter { $0.value.deadline <= now }
                for key in due.keys { state.pending.removeValue(forKey: key) }
                return Array(due.values)
            }
            guard let expired else { return }
            // Outside the lock: a time-out resumes its caller, whose clean-up forgets its key here.
            for operation in expired { operation.expire() }
        }
    }

    /// Resumes a continuation once, whichever of the operation, the watcher and a cancellation comes first.
    private final class Resumption<Value: Sendable>: Sendable {
        private let state: Mutex<(continuation: CheckedContinuation<Result<Value, PostgresStorageError>, Never>?, onResume: (@Sendable () -> Void)?)>

        init(_ continuation: CheckedContinuation<Result<Value, PostgresStorageError>, Never>) {
            state = Mutex((continuation, nil))
        }

        /// Called once the continuation is resumed (forgets the limit, cancels the work); set right after both are made.
        var onResume: (@Sendable () -> Void)? {
            get { state.withLock { $0.onResume } }
            set {
                let resumedAlready = state.withLock { current -> Bool in
                    current.onResume = newValue
                    return current.continuation == nil
                }
                if resumedAlready { newValue?() }
            }
        }

        /// Resumes with `result` unless resumed before; whether this call did.
        @discardableResult
        func resume(_ result: Result<Value, PostgresStorageError>) -> Bool {
            let (continuation, onResume) = state.withLock { current in
                let taken = (current.continuation, current.onResume)
                current.continuation = nil
                return taken
            }
            guard let continuation else { return false }
            continuation.resume(returning: result)
            onResume?()
            return true
        }
    }
}
