import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

@Suite("Time limits of database operations")
struct OperationDeadlinesTests {
    private static let timedOut = PostgresStorageError(.timedOut, "test: timed out")
    private static let cancelled = PostgresStorageError(.cancelled, "test: cancelled")

    /// The error `body` threw, or nil when it returned.
    private func failure(_ body: () async throws(PostgresStorageError) -> Void) async -> PostgresStorageError? {
        do throws(PostgresStorageError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// Waits (at most a minute, on a loaded machine) until `condition` holds.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<6_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        return condition()
    }

    @Test("operations within their limit give their results and leave nothing pending; the watcher ends once none is")
    func withinLimit() async throws {
        let deadlines = OperationDeadlines(tick: .milliseconds(20))
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await deadlines.run(limit: .seconds(30), timedOut: Self.timedOut, cancelled: Self.cancelled) {
                        () async throws(PostgresStorageError) in
                        try? await Task.sleep(for: .milliseconds(index % 5 * 10))
                        return index
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<50))
        #expect(deadlines.pendingCount == 0, "every limit forgotten when its operation ended")
        #expect(try await eventually { !deadlines.isWatching }, "the watcher ends when nothing is pending")
        let error = await failure { () async throws(PostgresStorageError) in
            _ = try await deadlines.run(limit: .seconds(30), timedOut: Self.timedOut, cancelled: Self.cancelled) {
                () async throws(PostgresStorageError) -> Int in
                throw PostgresStorageError(.serverError, "test: refused")
            }
        }
        #expect(error?.code == .serverError, "an operation's own failure is its caller's")
    }

    @Test(
        "an operation that never answers fails as a time-out soon after its limit, while others that answer go on; it is cancelled",
        .timeLimit(.minutes(3))
    )
    func timesOut() async throws {
        let deadlines = OperationDeadlines(tick: .milliseconds(20))
        let workCancelled = Atomic(false)
        let started = ContinuousClock.now
        async let stuck = failure { () async throws(PostgresStorageError) in
            _ = try await deadlines.run(limit: .milliseconds(300), timedOut: Self.timedOut, cancelled: Self.cancelled) {
                () async throws(PostgresStorageError) -> Int in
                // Never answers by itself; ends only when cancelled.
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                workCancelled.store(true, ordering: .sequentiallyConsistent)
                return 0
            }
        }
        for index in 0..<5 {
            let value = try await deadlines.run(limit: .seconds(30), timedOut: Self.timedOut, cancelled: Self.cancelled) {
                () async throws(PostgresStorageError) in index
            }
            #expect(value == index)
        }
        let error = await stuck
        let waited = ContinuousClock.now - started
        #expect(error?.code == .timedOut)
        // Not before its limit; how soon after depends on the machine's load (the test's time limit bounds it).
        #expect(waited >= .milliseconds(300), "\(waited)")
        #expect(try await eventually { workCancelled.load(ordering: .sequentiallyConsistent) }, "the operation is cancelled once timed out")
        #expect(deadlines.pendingCount == 0)
        #expect(try await eventually { !deadlines.isWatching })
    }

    @Test("a caller cancelled while its operation runs gets a cancellation at once, long before the limit", .timeLimit(.minutes(3)))
    func cancelledCaller() async throws {
        let deadlines = OperationDeadlines(tick: .milliseconds(20))
        let caller = Task {
            await failure { () async throws(PostgresStorageError) in
                _ = try await deadlines.run(limit: .seconds(600), timedOut: Self.timedOut, cancelled: Self.cancelled) {
                    () async throws(PostgresStorageError) -> Int in
                    while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                    return 0
                }
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        caller.cancel()
        let error = await caller.value
        #expect(error?.code == .cancelled)
        #expect(ContinuousClock.now - started < .seconds(120), "not at the limit of ten minutes; \(MachineLoad.description)")
        #expect(deadlines.pendingCount == 0, "its limit is forgotten")
    }
}
