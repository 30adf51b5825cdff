import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// A sign-in continued from what a store keeps (its record and its flow's state, as JSON) by a new client and a new
/// session, as another replica or a restarted gateway would: it finishes, and the outcome names the same sign-in.
@Suite("Sign-in sessions continued from their saved state")
struct SignInSessionRestoreTests {
    /// The address of the first action (or selector option) of `step` that `matches`.
    static func address(in step: Representation, where matches: (Action) -> Bool) -> ActionAddress? {
        for (index, action) in step.actions.enumerated() {
            if matches(action) { return ActionAddress(["\(index)"]) }
            if case .selector(let options) = action.model, let option = options.firstIndex(where: matches) {
                return ActionAddress(["\(index)", "\(option)"])
            }
        }
        return nil
    }

    /// Runs `body` with a client for `configuration`, shutting it down afterwards, also when `body` throws (a client left
    /// running traps when it is released).
    static func withClient<Result>(_ configuration: HAAPIClientConfiguration, _ body: (HAAPIClient) async throws -> Result) async throws -> Result {
        let client = try await HAAPIClient(configuration: configuration)
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test("saved at the password form of the strict demo, continued by a new client, the sign-in completes with the same signInId")
    func continuedElsewhere() async throws {
        let demo = try await DemoServer.start(configuration: .strict)
        do {
            try await Self.continueElsewhere(demo: demo)
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }

    static func continueElsewhere(demo: RunningDemoServer) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("restore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sink = directory.appendingPathComponent("outcome.json").path
        let logger = Logger(label: "restore-test")
        let configuration = GatewayHarness.configuration(demo: demo, sinkPath: sink)
        guard case .haapi(var upstream) = configuration.upstream else {
            Issue.record("no upstream")
            return
        }
        upstream.requestTimeout = .seconds(60)
        let dispatcher = CallbackDispatcher(sinks: .fixed([CallbackSinkConfiguration.file(path: sink).sink]), logger: logger)
        let (saved, savedFlow, flowID) = try await withClient(upstream) { first in
            let original = SignInSession(flow: first.makeFlow(), dispatcher: dispatcher, logger: logger)
            try await original.begin(acceptLanguage: nil)
            // The authenticator selector: choose "Username and password".
            let selector = try #require(await original.snapshot().step)
            let option = try #require(address(in: selector) { $0.title == "Username and password" })
            try await original.submit(version: 1, address: option, form: [:], acceptLanguage: nil)
            let (record, flow, _) = await original.exportState()
            return (try JSONEncoder().encode(record), try JSONEncoder().encode(flow), original.flowID)
        }
        try await withClient(upstream) { second in
            let restored = SignInSession(
                record: try JSONDecoder().decode(SignInRecord.self, from: saved),
                flow: try second.restoreFlow(try JSONDecoder().decode(HAAPIFlowState.self, from: savedFlow)),
                dispatcher: dispatcher,
                polling: .init(),
                outcome: .init(),
                logger: logger,
                metrics: GatewayMetrics()
            )
            let form = try #require(await restored.snapshot().step)
            #expect(await restored.snapshot().version == 2)
            let password = try #require(address(in: form) { $0.form?.fields.contains { $0.type == .password } == true })
            let posted = try await restored.submit(
                version: 2,
                address: password,
                form: ["userName": "demo", "password": "demo"],
                acceptLanguage: nil
            )
            #expect(posted.phase == .step && posted.version == 3 && posted.refusal == nil, "the notice step after the password")
            let notice = try #require(await restored.snapshot().step)
            let next = try #require(address(in: notice) { $0.form != nil })
            let done = try await restored.submit(version: 3, address: next, form: [:], acceptLanguage: nil)
            #expect(done.phase == .signedIn)
        }
        let outcome = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sink))) as? [String: Any])
        #expect(outcome["outcome"] as? String == "success")
        #expect(outcome["signInId"] as? String == flowID)
        #expect(outcome["subject"] as? String == "demo", "the ID token validated against the nonce the first client sent")
    }
}
