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

    @Test(
        "saved at the password form of the strict demo, continued by a new client, the sign-in completes with the same signInId",
        arguments: [SignInDocument.currentFormat, 1]
    )
    func continuedElsewhere(format: Int) async throws {
        let demo = try await DemoServer.start(configuration: .strict)
        do {
            try await Self.continueElsewhere(demo: demo, format: format)
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }

    /// Saves a sign-in at its password form as a document of `format` (1: the step written twice, in the record and in
    /// the flow's state, as gateways before issue #43 wrote it), and continues it from there with a new client.
    static func continueElsewhere(demo: RunningDemoServer, format: Int) async throws {
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
        let (saved, savedStep, flowID) = try await withClient(upstream) { first in
            let original = SignInSession(flow: first.makeFlow(), dispatcher: dispatcher, logger: logger)
            try await original.begin(acceptLanguage: nil)
            // The authenticator selector: choose "Username and password".
            let selector = try #require(await original.snapshot().step)
            let option = try #require(address(in: selector) { $0.title == "Username and password" })
            try await original.submit(version: 1, address: option, form: [:], acceptLanguage: nil)
            var (document, _) = await original.document()
            let stepText = try #require(document.record.step?.jsonText)
            #expect(document.flowStepIsRecordStep && document.flow.currentStep == nil, "the flow's step is the record's, kept once")
            if format == 1 {
                (document.format, document.flowStepIsRecordStep, document.flow.currentStep) = (1, false, stepText)
            }
            let bytes = try document.encoded()
            let written = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            let (record, flow) = (written["record"] as? [String: Any], written["flow"] as? [String: Any])
            #expect(record?["step"] as? String == stepText)
            #expect(flow?["currentStep"] as? String == (format == 1 ? stepText : nil), "the step is written once in format 2, twice in 1")
            if format == 2 {
                // A document that says the flow's step is the record's, and whose record has none, is refused.
                var stepless = written
                stepless["record"] = record?.filter { $0.key != "step" }
                let bytes = Array(try JSONSerialization.data(withJSONObject: stepless))
                #expect(throws: DecodingError.self) { try SignInDocument.decode(bytes) }
            }
            return (bytes, stepText, original.flowID)
        }
        try await withClient(upstream) { second in
            let document = try SignInDocument.decode(saved)
            #expect(document.format == format)
            let flowStep = format == 1 ? document.flow.currentStep : document.flowStep?.jsonText
            #expect(flowStep == savedStep, "the flow's current step is read back from the record's in format 2")
            let restored = SignInSession(
                record: document.record,
                flow: try second.restoreFlow(document.flow, currentStep: document.flowStep),
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
