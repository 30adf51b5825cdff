import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// Callbacks never lose tokens silently: a failing exec program is retried and then reported, a file sink that
    /// cannot be written says so on the page and in the log.
    @Suite("Callback failures are retried and reported, never silent")
    struct CallbackFailureTests {
        private func temporaryDirectory() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("callback-failure-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        /// A program that fails its first `failures` runs, then saves its stdin (whole, by a rename); every run is counted in `runs`.
        private func flakyProgram(in directory: URL, failures: Int) throws -> URL {
            let script = directory.appendingPathComponent("receive.sh")
            let runs = directory.appendingPathComponent("runs").path
            let output = directory.appendingPathComponent("outcome.json").path
            try """
            #!/bin/sh
            n=$(cat '\(runs)' 2>/dev/null || echo 0)
            n=$((n + 1))
            echo "$n" > '\(runs)'
            if [ "$n" -le \(failures) ]; then cat > /dev/null; exit 1; fi
            cat > '\(output).partial' && mv '\(output).partial' '\(output)'
            """.write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
            return script
        }

        @Test("an exec program that fails twice is retried: the page says the hand-over is retried, the tokens arrive exactly once")
        func execRetriedUntilItSucceeds() async throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let program = try flakyProgram(in: directory, failures: 2)
            let logs = LogCapture()
            try await GatewayHarness.withGateway(
                logger: logs.logger,
                configure: {
                    $0.callbacks = [.exec(program: program.path)]
                    $0.callbackDelivery = CallbackDeliverySettings(retryForSeconds: 60, initialBackoffSeconds: 0.05)
                }
            ) { browser, _, _ in
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("You are signed in") && done.html.contains("taking longer than usual"))
                let output = directory.appendingPathComponent("outcome.json")
                for _ in 0..<400 where !FileManager.default.fileExists(atPath: output.path) { try await Task.sleep(for: .milliseconds(50)) }
                let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: output)) as? [String: Any]
                #expect(object?["outcome"] as? String == "success")
            }
            #expect(
                try String(contentsOf: directory.appendingPathComponent("runs"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                    == "3"
            )
            #expect(logs.text.contains("callback delivery failed; retrying") && logs.text.contains("callback delivered after retries"))
        }

        @Test("an exec program that always fails is given up after callbacks.retryForSeconds with an error naming it")
        func execAlwaysFailingIsReported() async throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let program = try flakyProgram(in: directory, failures: .max)
            let logs = LogCapture()
            try await GatewayHarness.withGateway(
                logger: logs.logger,
                configure: {
                    $0.callbacks = [.exec(program: program.path)]
                    $0.callbackDelivery = CallbackDeliverySettings(retryForSeconds: 1, initialBackoffSeconds: 0.05)
                }
            ) { browser, _, _ in
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("taking longer than usual"), "not a silent success")
                for _ in 0..<200 where !logs.text.contains("callback delivery given up") { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(logs.text.contains("callback delivery given up"))
            #expect(logs.text.contains("exec:\(program.path)"))
        }

        @Test("a file sink whose directory cannot be created (its parent is a file) gives a page that says so and an error in the log")
        func unwritableFileSink() async throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let blocker = directory.appendingPathComponent("not-a-directory")
            try "x".write(to: blocker, atomically: true, encoding: .utf8)
            let target = blocker.appendingPathComponent("outcome.json").path
            let logs = LogCapture()
            try await GatewayHarness.withGateway(
                logger: logs.logger,
                configure: {
                    $0.callbacks = [.file(path: target)]
                    $0.callbackDelivery = CallbackDeliverySettings(retryForSeconds: 1, initialBackoffSeconds: 0.05)
                }
            ) { browser, _, _ in
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("taking longer than usual"), "the page does not claim the hand-over worked")
                for _ in 0..<200 where !logs.text.contains("callback delivery given up") { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(logs.text.contains("callback delivery failed; retrying"))
            #expect(logs.text.contains("callback delivery given up"))
            #expect(logs.text.contains("file:\(target)"))
        }
    }
}
