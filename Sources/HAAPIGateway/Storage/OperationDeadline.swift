import Synchronization

/// Bounds a database operation in time. PostgresNIO waits for a pooled connection, and for an answer, as long as it
/// takes; a person's page must not. The operation runs in a task of its own and the caller gets its result, or a
/// time-out when `limit` passes first, or a cancellation as soon as the caller is cancelled (a shutdown); then the task
/// is cancelled and left to end by itself (a query already sent finishes or fails on the server's side).
enum OperationDeadline {
    /// The result of `operation`, or `timedOut` when it takes longer than `limit`, or `cancelled` as soon as the calling
    /// task is cancelled.
    static func run<Value: Sendable>(
        limit: Duration, timedOut: PostgresStorageError, cancelled: PostgresStorageError,
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
                let timer = Task {
                    try? await Task.sleep(for: limit)
                    guard !Task.isCancelled else { return }
                    resumption.resume(.failure(timedOut))
                }
                resumption.onResume = {
                    timer.cancel()
                    work.cancel()
                }
                if Task.isCancelled { resumption.resume(.failure(cancelled)) }
            }
        } onCancel: {
            box.withLock { $0 }?.resume(.failure(cancelled))
        }
        return try outcome.get()
    }

    /// Resumes a continuation once, whichever of the operation and the timer comes first.
    private final class Resumption<Value: Sendable>: Sendable {
        private let state: Mutex<(continuation: CheckedContinuation<Result<Value, PostgresStorageError>, Never>?, onResume: (@Sendable () -> Void)?)>

        init(_ continuation: CheckedContinuation<Result<Value, PostgresStorageError>, Never>) {
            state = Mutex((continuation, nil))
        }

        /// Called once the continuation is resumed (cancels the timer and the work); set right after both tasks are made.
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
