import Synchronization

/// Bounds a database operation in time. PostgresNIO waits for a pooled connection, and for an answer, as long as it
/// takes; a person's page must not. The operation runs in a task of its own and the caller gets its result, or a
/// time-out when `limit` passes first; then the task is cancelled and left to end by itself (a query already sent
/// finishes or fails on the server's side).
enum OperationDeadline {
    /// The result of `operation`, or `timedOut` when it takes longer than `limit`.
    static func run<Value: Sendable>(
        limit: Duration, timedOut: PostgresStorageError, _ operation: @escaping @Sendable () async throws(PostgresStorageError) -> Value
    ) async throws(PostgresStorageError) -> Value {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, PostgresStorageError>, Never>) in
            let resumption = Resumption(continuation)
            let work = Task {
                do throws(PostgresStorageError) {
                    resumption.resume(.success(try await operation()))
                } catch {
                    resumption.resume(.failure(error))
                }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled else { return }
                if resumption.resume(.failure(timedOut)) { work.cancel() }
            }
            resumption.onResume = { timer.cancel() }
        }
        return try outcome.get()
    }

    /// Resumes a continuation once, whichever of the operation and the timer comes first.
    private final class Resumption<Value: Sendable>: Sendable {
        private let state: Mutex<(continuation: CheckedContinuation<Result<Value, PostgresStorageError>, Never>?, onResume: (@Sendable () -> Void)?)>

        init(_ continuation: CheckedContinuation<Result<Value, PostgresStorageError>, Never>) {
            state = Mutex((continuation, nil))
        }

        /// Called once the continuation is resumed (cancels the timer); set right after both tasks are made.
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
