import Foundation
import Synchronization
import Testing

@testable import GatewayTestSupport

/// The shares of the machine that the tests starting programs hold (``MachineShare``): never more than the capacity at
/// once, the larger requests first, the head of the line never overtaken.
@Suite("The machine's shares")
struct MachineShareTests {
    /// A gate of its own, not the test process's.
    let share = MachineShare(capacity: 2)

    /// What the tasks of a test write down, under a lock.
    final class Record<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }

    @Test("never more units held than there are, and every holder ends")
    func neverBeyondTheCapacity() async {
        let inUse = Record((now: 0, most: 0))
        let share = share
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    let holding = await share.acquire(units: 1 + index % 2, for: "test \(index)")
                    inUse.value.withLock {
                        $0.now += holding.units
                        $0.most = max($0.most, $0.now)
                    }
                    try? await Task.sleep(for: .milliseconds(5))
                    inUse.value.withLock { $0.now -= holding.units }
                    share.release(holding)
                }
            }
        }
        #expect(inUse.value.withLock { $0.most } <= 2)
        #expect(share.occupancy.holders.isEmpty && share.occupancy.waiting == 0)
    }

    @Test("a request for every unit is not overtaken by smaller ones that asked after it")
    func aLargerRequestIsNotOvertaken() async throws {
        let share = share
        let first = await share.acquire(units: 1, for: "first")
        let order = Record<[String]>([])
        let whole = Task {
            let holding = await share.acquire(units: 2, for: "whole machine")
            order.value.withLock { $0.append("whole machine") }
            share.release(holding)
        }
        while share.occupancy.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let small = Task {
            let holding = await share.acquire(units: 1, for: "small")
            order.value.withLock { $0.append("small") }
            share.release(holding)
        }
        while share.occupancy.waiting < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(order.value.withLock { $0 }.isEmpty, "one unit was free, yet the small request waits behind the larger one")
        share.release(first)
        await whole.value
        await small.value
        #expect(order.value.withLock { $0 } == ["whole machine", "small"])
    }

    @Test("a request for more than there is takes all there is")
    func moreThanThereIsTakesAll() async {
        let holding = await share.acquire(units: 5, for: "greedy")
        #expect(holding.units == 2)
        share.release(holding)
    }

    @Test("waiting larger requests go before smaller ones that asked earlier, which keep their order")
    func largerRequestsFirst() async throws {
        let share = share
        let both = await share.acquire(units: 2, for: "both")
        let order = Record<[String]>([])
        var waiting: [Task<Void, Never>] = []
        for (index, (name, units)) in [("small 1", 1), ("small 2", 1), ("large", 2)].enumerated() {
            waiting.append(
                Task {
                    let holding = await share.acquire(units: units, for: name)
                    order.value.withLock { $0.append(name) }
                    share.release(holding)
                }
            )
            while share.occupancy.waiting < index + 1 { try await Task.sleep(for: .milliseconds(1)) }
        }
        share.release(both)
        for task in waiting { await task.value }
        #expect(order.value.withLock { $0 } == ["large", "small 1", "small 2"])
    }
}
