import Foundation

/// The shares of this machine's processors that the tests starting other programs (gateways, demo servers, PostgreSQL,
/// Chromium, Java, Python, git) hold while they run: a test takes its units before its body runs and gives them back
/// after, and a test whose units are not free waits without blocking a thread, the larger requests first, then in order
/// of arrival; a request at the head of the line is never overtaken.
///
/// Swift Testing starts every test of the run at once; left alone, the suite's own gateways, databases and browsers
/// kept a two-core machine's load average at 8-12, and tests that wait for something bounded in time (a refused
/// connection, a readiness, a database's answer) failed for want of a processor. The tests that run in the test process
/// alone are not counted: they share its threads, which the operating system gives their fair part beside these.
///
/// ``capacity`` is one share per processor and one more (3 on two processors: a test that starts programs spends much
/// of its time waiting for them), or `HAAPI_GATEWAY_TEST_MACHINE_SHARES`.
public final class MachineShare: @unchecked Sendable {
    /// The one gate of the test process.
    public static let shared = MachineShare(capacity: MachineShare.configuredCapacity)

    /// What the test running in this task holds, nil outside a test that holds a share.
    @TaskLocal public static var held: Holding?

    /// A share held by one test.
    public struct Holding: Sendable {
        let identifier: UInt64
        /// The test's name.
        public let name: String
        /// Its units.
        public let units: Int
        /// How long it waited for them.
        public let waited: Duration
        /// When it got them.
        public let since: ContinuousClock.Instant
    }

    private struct Waiter {
        let identifier: UInt64
        let units: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    /// The units there are.
    public let capacity: Int
    private let lock = NSLock()
    private var inUse = 0
    private var waiters: [Waiter] = []
    private var holders: [UInt64: Holding] = [:]
    private var nextIdentifier: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    static var configuredCapacity: Int {
        if let text = ProcessInfo.processInfo.environment["HAAPI_GATEWAY_TEST_MACHINE_SHARES"], let value = Int(text), value > 0 {
            return value
        }
        return max(2, ProcessInfo.processInfo.activeProcessorCount) + 1
    }

    /// Waits until `units` are free (all of the capacity at most) and after every waiting test that asked for more, or as
    /// much before, then holds them for `name`.
    public func acquire(units: Int, for name: String) async -> Holding {
        let units = min(max(1, units), capacity)
        let asked = ContinuousClock.now
        let (identifier, admitted) = lock.withLock {
            nextIdentifier += 1
            guard waiters.isEmpty, inUse + units <= capacity else { return (nextIdentifier, false) }
            inUse += units
            return (nextIdentifier, true)
        }
        if !admitted {
            await withCheckedContinuation { continuation in
                let admittedNow = lock.withLock {
                    guard waiters.isEmpty, inUse + units <= capacity else {
                        // Larger requests first (the browser walks, the soak and the benchmark, the longest suites, start
                        // early and the rest fill the shares beside them), then in order of arrival.
                        let place = waiters.firstIndex { $0.units < units } ?? waiters.endIndex
                        waiters.insert(Waiter(identifier: identifier, units: units, continuation: continuation), at: place)
                        return false
                    }
                    inUse += units
                    return true
                }
                if admittedNow { continuation.resume() }
            }
        }
        let now = ContinuousClock.now
        let holding = Holding(identifier: identifier, name: name, units: units, waited: now - asked, since: now)
        lock.withLock { holders[identifier] = holding }
        return holding
    }

    /// Gives `holding`'s units back and lets the next waiters in, in their order; says how long it was held and waited
    /// for, in a line `scripts/test-timings` reads (the test's own time, apart from its wait for the share).
    public func release(_ holding: Holding) {
        let held = ContinuousClock.now - holding.since
        print(
            "machine share: \(holding.name) held \(holding.units) for \(MachineLoad.seconds(held)) after waiting \(MachineLoad.seconds(holding.waited))"
        )
        let admitted: [Waiter] = lock.withLock {
            guard holders.removeValue(forKey: holding.identifier) != nil else { return [] }
            inUse -= holding.units
            var admitted: [Waiter] = []
            while let first = waiters.first, inUse + first.units <= capacity {
                waiters.removeFirst()
                inUse += first.units
                admitted.append(first)
            }
            return admitted
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    /// Runs `body` holding `units` for `name`, or in the share this task's test holds already.
    public func holding<Value: Sendable>(
        _ units: Int,
        for name: String,
        _ body: @Sendable () async throws -> Value
    ) async rethrows -> Value {
        if Self.held != nil { return try await body() }
        let holding = await acquire(units: units, for: name)
        defer { release(holding) }
        return try await Self.$held.withValue(holding) { try await body() }
    }

    /// The tests holding a share now (the longest held first) and how many wait.
    public var occupancy: (holders: [Holding], waiting: Int) {
        lock.withLock { (holders.values.sorted { $0.since < $1.since }, waiters.count) }
    }
}
