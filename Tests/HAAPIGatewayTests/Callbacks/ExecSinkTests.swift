import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Exec callback sink")
struct ExecSinkTests {
    @Test("exec:PROGRAM receives the outcome JSON on stdin")
    func execReceivesOutcomeOnStdin() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("exec-sink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("stdin.json")
        let script = directory.appendingPathComponent("receive.sh")
        try "#!/bin/sh\ncat > '\(output.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        try await GatewayHarness.withGateway(configure: { $0.callbacks = [.exec(program: script.path)] }) { browser, _, _ in
            let selector = try await browser.get("/")
            let confirm = try await browser.submit(try selector.form(button: "Cancel sign-in"))
            _ = try await browser.submit(try confirm.form(button: "Yes, cancel sign-in"))
        }
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: output)) as? [String: Any]
        #expect(object?["outcome"] as? String == "cancelled")
    }
}
