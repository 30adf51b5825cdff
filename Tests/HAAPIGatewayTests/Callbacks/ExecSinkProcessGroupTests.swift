import Foundation
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exec sink's attempt that ends without the program exiting 0 (cancelled, past its time limit, ended by a
/// shutdown) ends the program's whole process group, so that nothing it left in the background delivers later beside
/// the retry. Checked through `/proc` and the files the program writes, never with `pkill`.
@Suite("Exec callback sink: the program's process group")
struct ExecSinkProcessGroupTests {
    /// A receiver that accepts at once (writing `delivered-PID`) once the file `ok` exists; before that it starts a
    /// background child that delivers (`delivered-late-PID`) once the file `late` exists, writes its own and that
    /// child's PIDs to `pids`, and hangs. The test makes `late` only after the attempt ended: a child still alive then
    /// delivers, whatever the time the test process, busy with the suites beside it, took to get there (a child that
    /// delivered 10 s after it started did so once before a loaded test process had ended the attempt); one the test
    /// never lets deliver gives up after about 2 minutes.
    private struct Receiver {
        let directory: URL
        let program: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("exec-group-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            program = directory.appendingPathComponent("receiver.sh")
            let path = directory.path
            try """
            #!/bin/sh
            if [ -f '\(path)/ok' ]; then cat > '\(path)/delivered-'$$; exit 0; fi
            ( i=0; while [ ! -f '\(path)/late' ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
              if [ -f '\(path)/late' ]; then cat > '\(path)/delivered-late-'$$; fi ) &
            echo $$ $! > '\(path)/pids.tmp'; mv '\(path)/pids.tmp' '\(path)/pids'
            sleep 30
            """.write(to: program, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: program.path)
        }

        /// The program's PID (its process group's) and its background child's, once it wrote them (within 30 s: starting
        /// a shell took over 10 s once on a test machine busy with every suite at once).
        func pids() async throws -> (program: pid_t, background: pid_t) {
            let file = directory.appendingPathComponent("pids")
            let deadline = ContinuousClock.now + .seconds(30)
            while !FileManager.default.fileExists(atPath: file.path), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let numbers = try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
            try #require(numbers.count == 2, "the program wrote its PIDs")
            return (numbers[0], numbers[1])
        }

        /// The deliveries made so far (`delivered-…` files), late ones included.
        var deliveries: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix("delivered-") }.sorted()
        }

        func accept() throws { try Data().write(to: directory.appendingPathComponent("ok")) }

        /// Lets a background child still alive deliver late, and waits long enough for one to do so.
        func allowLateDelivery() async throws {
            try Data().write(to: directory.appendingPathComponent("late"))
            try await Task.sleep(for: .seconds(3))
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// Awaits `task` at most `limit`; nil when it has not ended by then.
    private static func result(of task: Task<Void, any Error>, within limit: Duration) async -> Result<Void, any Error>? {
        let ended = EndedTask()
        Task { ended.set(await task.result) }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let result = ended.result { return result }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return ended.result
    }

    private final class EndedTask: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<Void, any Error>?
        var result: Result<Void, any Error>? { lock.withLock { value } }
        func set(_ result: Result<Void, any Error>) { lock.withLock { value = result } }
    }

    private static let delivery = CallbackDelivery(id: "delivery-1", document: Array(#"{"outcome":"cancelled"}"#.utf8), outcome: "cancelled")

    @Test("a cancelled attempt ends the program and its background child at once; the child never delivers late")
    func cancelledAttemptEndsTheGroup() async throws {
        let receiver = try Receiver()
        defer { receiver.remove() }
        let sink = ExecCallbackSink(program: receiver.program.path)
        let attempt = Task { try await sink.deliver(Self.delivery) }
        let pids = try await receiver.pids()
        attempt.cancel()
        // Well before the sink's own 30 s limit would end it; 10 s was too short for a machine running every suite at once.
        let ended = await Self.result(of: attempt, within: .seconds(20))
        #expect(ended != nil, "the cancelled attempt returned within 20 s")
        if case .success? = ended { Issue.record("a cancelled attempt is not a delivery") }
        #expect(await ProcessGroups.waitUntilGone([pids.program, pids.background], within: .seconds(5)), "nothing of the program's group runs")
        #expect(ProcessGroups.members(of: pids.program).isEmpty)
        try await receiver.allowLateDelivery()
        #expect(receiver.deliveries.isEmpty, "the background child never delivered")
    }

    @Test("an attempt past its time limit fails and ends the program's whole group, so no late delivery joins the retry")
    func timedOutAttemptEndsTheGroup() async throws {
        let receiver = try Receiver()
        defer { receiver.remove() }
        let sink = ExecCallbackSink(program: receiver.program.path, timeout: .milliseconds(500))
        let attempt = Task { try await sink.deliver(Self.delivery) }
        let pids = try await receiver.pids()
        let ended = await Self.result(of: attempt, within: .seconds(30))
        #expect(ended != nil, "the attempt ended soon after its time limit")
        if case .success? = ended { Issue.record("a program ended at its time limit did not deliver") }
        #expect(await ProcessGroups.waitUntilGone([pids.program, pids.background], within: .seconds(5)), "nothing of the program's group runs")
        try await receiver.allowLateDelivery()
        #expect(receiver.deliveries.isEmpty, "the background child never delivered")
    }

    @Test("a shutdown ends an exec attempt still under way with its group; the spooled delivery is delivered once after the next start")
    func shutdownEndsTheGroupAndDeliversOnce() async throws {
        let receiver = try Receiver()
        defer { receiver.remove() }
        let spool = receiver.directory.appendingPathComponent("callbacks.spool").path
        let sink = ExecCallbackSink(program: receiver.program.path)
        let before = CallbackDispatcher(
            sinks: .fixed([sink]),
            settings: .fixed(CallbackDeliverySettings(handOverSeconds: 1)),
            logger: Logger(label: "t"),
            journal: SpoolJournal(path: spool, metrics: nil, logger: Logger(label: "t"))
        )
        let handedOver = Task { await before.deliver(.cancelled) }
        let pids = try await receiver.pids()
        let stopping = ContinuousClock.now
        await before.flushAtShutdown()
        #expect(
            ContinuousClock.now - stopping < .seconds(15),
            "the shutdown waited the hand-over, the grace and not much more; \(MachineLoad.description)"
        )
        #expect(
            await ProcessGroups.waitUntilGone([pids.program, pids.background], within: .seconds(2)),
            "nothing of the program's group runs once the shutdown is done"
        )
        #expect(try CallbackSpool.read(spool).count == 1, "left in the spool for the next start")
        _ = await handedOver.value

        try receiver.accept()
        let after = CallbackDispatcher(
            sinks: .fixed([sink]),
            settings: .fixed(CallbackDeliverySettings(initialBackoffSeconds: 0.01)),
            logger: Logger(label: "t"),
            journal: SpoolJournal(path: spool, metrics: nil, logger: Logger(label: "t"))
        )
        await after.start()
        await after.drained()
        try await receiver.allowLateDelivery()
        #expect(receiver.deliveries.count == 1, "delivered once, by the second start only: \(receiver.deliveries)")
        #expect(receiver.deliveries.allSatisfy { !$0.hasPrefix("delivered-late-") })
    }
}
