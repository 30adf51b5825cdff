import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// A sink that refuses the first `failures` attempts.
final class FlakySink: CallbackSink, @unchecked Sendable {
    private let lock = NSLock()
    private var failuresLeft: Int
    private var accepted: [CallbackDelivery] = []
    private(set) var attempts = 0
    let name = "flaky:test"

    init(failures: Int) { failuresLeft = failures }

    var deliveries: [CallbackDelivery] { lock.withLock { accepted } }
    var attemptCount: Int { lock.withLock { attempts } }

    func deliver(_ delivery: CallbackDelivery) async throws {
        try lock.withLock {
            attempts += 1
            if failuresLeft > 0 {
                failuresLeft -= 1
                throw GatewayError(.internalError, "receiver down")
            }
            accepted.append(delivery)
        }
    }
}

@Suite("Callback delivery never drops an outcome silently")
struct CallbackDeliveryTests {
    @Test("a sink that is down for a while receives the outcome exactly once when it comes back")
    func retriedUntilDelivered() async throws {
        let sink = FlakySink(failures: 3)
        let logs = LogCapture()
        let dispatcher = CallbackDispatcher(
            sinks: .fixed([sink]),
            settings: .fixed(CallbackDeliverySettings(retryForSeconds: 30, initialBackoffSeconds: 0.01)),
            logger: logs.logger
        )
        let deliveredAtOnce = await dispatcher.deliver(.cancelled)
        #expect(!deliveredAtOnce)
        #expect(await dispatcher.pendingCount == 1)
        await dispatcher.drained()
        #expect(sink.deliveries.count == 1)
        #expect(sink.attemptCount == 4)
        #expect(await dispatcher.pendingCount == 0)
        #expect(logs.text.contains("callback delivered after retries"))
        #expect(logs.text.contains("attempts: 4") || logs.text.contains("\"attempts\": 4") || logs.text.contains("attempts\": 4"))
    }

    @Test("a sink that never comes back is given up after the retry period with an error naming it")
    func givenUpLoudly() async throws {
        let sink = FlakySink(failures: .max)
        let logs = LogCapture()
        let dispatcher = CallbackDispatcher(
            sinks: .fixed([sink]),
            settings: .fixed(CallbackDeliverySettings(retryForSeconds: 1, initialBackoffSeconds: 0.02)),
            logger: logs.logger
        )
        await dispatcher.deliver(.failure(.init(error: "access_denied")))
        await dispatcher.drained()
        #expect(sink.deliveries.isEmpty)
        #expect(sink.attemptCount >= 2, "retried before giving up")
        #expect(logs.text.contains("error callback delivery given up"))
        #expect(logs.text.contains("flaky:test"))
    }

    @Test("a healthy sink beside a failing one gets the outcome at once, and the same delivery id is retried to the other")
    func sinksAreIndependent() async throws {
        let healthy = FlakySink(failures: 0)
        let flaky = FlakySink(failures: 1)
        let dispatcher = CallbackDispatcher(
            sinks: .fixed([flaky, healthy]),
            settings: .fixed(CallbackDeliverySettings(initialBackoffSeconds: 0.01)),
            logger: Logger(label: "t")
        )
        await dispatcher.deliver(.cancelled)
        #expect(healthy.deliveries.count == 1)
        await dispatcher.drained()
        #expect(flaky.deliveries.first?.id == healthy.deliveries.first?.id)
        #expect(flaky.deliveries.first?.document == healthy.deliveries.first?.document)
    }

    @Test("at shutdown a pending delivery gets one last attempt; one still refused is logged as lost")
    func flushAtShutdown() async throws {
        let recovers = FlakySink(failures: 1)
        let never = FlakySink(failures: .max)
        let logs = LogCapture()
        let dispatcher = CallbackDispatcher(
            sinks: .fixed([recovers, never]),
            settings: .fixed(CallbackDeliverySettings(retryForSeconds: 3600, initialBackoffSeconds: 600)),
            logger: logs.logger
        )
        await dispatcher.deliver(.cancelled)
        #expect(await dispatcher.pendingCount == 2)
        await dispatcher.flushAtShutdown()
        #expect(recovers.deliveries.count == 1)
        #expect(never.deliveries.isEmpty)
        #expect(await dispatcher.pendingCount == 0)
        #expect(logs.text.contains("callback delivered at shutdown"))
        #expect(logs.text.contains("error callback delivery given up"))
    }

    @Test("a delivery still failing at shutdown is spooled (0600) and delivered after the next start, same id and document")
    func spooledAcrossARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = directory.appendingPathComponent("callbacks.spool").path
        let down = FlakySink(failures: .max)
        let before = CallbackDispatcher(
            sinks: .fixed([down]),
            settings: .fixed(CallbackDeliverySettings(initialBackoffSeconds: 600)),
            logger: Logger(label: "t"),
            journal: SpoolJournal(path: spool, metrics: nil, logger: Logger(label: "t"))
        )
        await before.deliver(.cancelled)
        await before.flushAtShutdown()
        let mode = (try FileManager.default.attributesOfItem(atPath: spool)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)

        let back = FlakySink(failures: 0)
        let after = CallbackDispatcher(
            sinks: .fixed([back]),
            settings: .fixed(CallbackDeliverySettings(initialBackoffSeconds: 0.01)),
            logger: Logger(label: "t"),
            journal: SpoolJournal(path: spool, metrics: nil, logger: Logger(label: "t"))
        )
        await after.start()
        await after.drained()
        #expect(back.deliveries.count == 1)
        #expect(back.deliveries.first?.document == Array(#"{"outcome":"cancelled"}"#.utf8))
        #expect(!FileManager.default.fileExists(atPath: spool), "the spool is gone once taken in")
    }

    @Test("the sinks are attempted all at once; the person waits at most callbacks.handOverSeconds, the slow sink goes on")
    func parallelHandOverWithABound() async throws {
        let slow = BlockingSink(name: "slow")
        let slower = BlockingSink(name: "slower")
        let quick = FlakySink(failures: 0)
        let dispatcher = CallbackDispatcher(
            sinks: .fixed([slow, slower, quick]),
            settings: .fixed(CallbackDeliverySettings(handOverSeconds: 1)),
            logger: Logger(label: "t")
        )
        let allAccepted = await dispatcher.deliver(.cancelled)
        #expect(!allAccepted, "the page is told the hand-over is still being retried")
        #expect(slow.attemptsStarted.count == 1 && slower.attemptsStarted.count == 1, "both slow sinks were attempted, not one after the other")
        #expect(quick.deliveries.count == 1)
        #expect(await dispatcher.pendingCount == 2, "the deliveries under way are still pending")
        slow.release()
        slower.release()
        await dispatcher.drained()
        #expect(slow.deliveries.count == 1 && slower.deliveries.count == 1)
        #expect(await dispatcher.pendingCount == 0)
    }

    @Test(
        "with a spool, a delivery is in it from before its first attempt until it is done; a shutdown during the attempt leaves it there; the next start delivers it once"
    )
    func spoolIsWrittenAheadAndSurvivesAShutdownMidAttempt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = directory.appendingPathComponent("callbacks.spool").path
        let stuck = BlockingSink(name: "receiver")
        let before = CallbackDispatcher(
            sinks: .fixed([stuck]),
            settings: .fixed(CallbackDeliverySettings(handOverSeconds: 1)),
            logger: Logger(label: "t"),
            journal: SpoolJournal(path: spool, metrics: nil, logger: Logger(label: "t"))
        )
        #expect(!(await before.deliver(.cancelled)))
        let id = try #require(stuck.attemptsStarted.first)
        #expect(try CallbackSpool.read(spool).map(\.id) == [id], "in the spool while its attempt is under way (a SIGKILL now loses nothing)")
        await before.flushAtShutdown()
        #expect(try CallbackSpool.read(spool).map(\.id) == [id], "still there after a shutdown during the attempt")

        let back = FlakySink(failures: 0)
        let after = CallbackDispatcher(
            sinks: .fixed([ReceiverNamed(name: "receiver", sink: back)]),
            settings: .fixed(CallbackDeliverySettings(initialBackoffSeconds: 0.01)),
            logger: Logger(label: "t"),
            journal: SpoolJournal(path: spool, metrics: nil, logger: Logger(label: "t"))
        )
        await after.start()
        await after.drained()
        #expect(back.deliveries.map(\.id) == [id], "delivered once, with the same id")
        #expect(!FileManager.default.fileExists(atPath: spool), "the spool is empty once it is done")
        stuck.release()
    }

    @Test("a shutdown awaits the attempts already under way: one the sink accepts meanwhile is done, not left in the spool")
    func shutdownAwaitsAttemptsUnderWay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = directory.appendingPathComponent("callbacks.spool").path
        let slow = BlockingSink(name: "receiver")
        let dispatcher = CallbackDispatcher(
            sinks: .fixed([slow]),
            // Longer than this test takes on any machine, so that only a shutdown that does not wait fails it: the
            // shutdown ends as soon as the sink accepted. With 5 s, a full run of the suite on two cores once kept the
            // releasing task below from running before the shutdown gave up.
            settings: .fixed(CallbackDeliverySettings(handOverSeconds: 120)),
            logger: Logger(label: "t"),
            journal: SpoolJournal(path: spool, metrics: nil, logger: Logger(label: "t"))
        )
        let handedOver = Task { await dispatcher.deliver(.cancelled) }
        while slow.attemptsStarted.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        // The sink accepts while the shutdown waits (it counts the delivery as pending); the process exits as soon as the
        // shutdown is done, so that is when the spool must already be right.
        Task {
            let giveUp = ContinuousClock.now + .seconds(120)
            while dispatcher.stopReport == nil, ContinuousClock.now < giveUp { try await Task.sleep(for: .milliseconds(10)) }
            slow.release()
        }
        await dispatcher.flushAtShutdown()
        #expect(!FileManager.default.fileExists(atPath: spool), "a delivered outcome is not spooled to be delivered again")
        _ = await handedOver.value
        #expect(slow.deliveries.count == 1)
    }

    @Test("the outcome documents: success has exactly the six token fields; error and cancelled have no token")
    func documents() throws {
        let tokens = OAuthTokens(accessToken: "a", expiresIn: 300, refreshToken: "r", tokenType: "Bearer", scope: "openid", idToken: "i")
        let success = try JSONSerialization.jsonObject(with: Data(try CompletionOutcome.success(tokens).encoded())) as? [String: Any]
        #expect(
            Set((success?["token"] as? [String: Any])?.keys.map { $0 } ?? []) == [
                "accessToken", "expiresIn", "refreshToken", "tokenType", "scope", "idToken",
            ]
        )
        #expect(success?["error"] == nil)
        let failure = String(
            decoding: try CompletionOutcome.failure(.init(error: "access_denied", errorDescription: "denied")).encoded(),
            as: UTF8.self
        )
        #expect(failure == #"{"error":{"error":"access_denied","errorDescription":"denied"},"outcome":"error"}"#)
        #expect(String(decoding: try CompletionOutcome.cancelled.encoded(), as: UTF8.self) == #"{"outcome":"cancelled"}"#)
    }

    @Test("a file sink whose directory appears later still gets the tokens; the page says the hand-over is retried")
    func fileSinkRecovers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("late-sink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("tokens.json")
        try await GatewayHarness.withGateway(configure: {
            $0.callbacks = [.file(path: target.path)]
            $0.callbackDelivery = CallbackDeliverySettings(retryForSeconds: 60, initialBackoffSeconds: 0.05)
        }) { browser, _, _ in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            #expect(done.html.contains("taking longer than usual"))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for _ in 0..<200 where !FileManager.default.fileExists(atPath: target.path) { try await Task.sleep(for: .milliseconds(50)) }
        }
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: target)) as? [String: Any]
        #expect(object?["outcome"] as? String == "success")
        #expect((object?["token"] as? [String: Any])?["accessToken"] is String)
    }

    @Test("a sign-in the upstream refuses hands {outcome: error} with the OAuth error to the sinks, and says so on the page")
    func errorOutcome() async throws {
        try await GatewayHarness.withGateway(configure: { configuration in
            guard case .haapi(var client) = configuration.upstream else { return }
            client.scopes = ["openid", "admin"]
            configuration.upstream = .haapi(client)
        }) { browser, _, sinkPath in
            let page = try await browser.get("/")
            #expect(page.html.contains("Sign-in failed"))
            #expect(page.html.contains("Start again"))
            let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any]
            #expect(object?["outcome"] as? String == "error")
            let error = object?["error"] as? [String: Any]
            #expect(error?["error"] as? String == "invalid_scope")
            #expect(object?["token"] == nil)
        }
    }
}
