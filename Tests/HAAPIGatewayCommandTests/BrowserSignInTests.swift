import Foundation
import HAAPIDemoServer
import Testing
@testable import GatewayTestSupport

/// Every demo user signs in through the built gateway in headless Chromium, as a person would, on a 1280 px desktop
/// and a 375 px phone: one h1 and a language on every page, no horizontal scroll, no console error. Screenshots of
/// every page go to `artifacts/screenshots/`. Needs Debian's chromium and chromium-driver and Python's selenium,
/// which `.ci/run` installs.
@Suite(.serialized) struct BrowserSignInTests {
    private struct Report: Decodable {
        struct Walk: Decodable {
            struct Page: Decodable { let name: String; let h1: String }
            let user: String
            let width: Int
            let pages: [Page]
            let problems: [String]
        }
        let walks: [Walk]
        let seconds: Double
    }

    @Test(.enabled(if: TestTools.browserAvailable, "needs chromium, chromium-driver and Python's selenium (.ci/run installs them)"))
    func everyDemoUserSignsInInChromiumOnADesktopAndAPhone() async throws {
        let demo = try await DemoServer.start()
        let serve = try RunningGateway(
            [
                "serve", "--port", "0", "--upstream", demo.baseURL.absoluteString, "--client-id", DemoServer.clientID, "--client-secret",
                DemoServer.clientSecret,
            ], environment: ["HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60", "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0"])
        let shots = Repository.root.appendingPathComponent("artifacts/screenshots")
        try? FileManager.default.removeItem(at: shots)
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let result: ProcessResult
        do {
            let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
            result = try await runProgram(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", Repository.root.appendingPathComponent("Tests/Browser/sign_in.py").path, base, demo.baseURL.absoluteString, shots.path],
                seconds: 600)
        } catch {
            serve.signal(SIGTERM)
            await demo.shutdown()
            throw error
        }
        serve.signal(SIGTERM)
        _ = try await serve.waitForExit(timeout: .seconds(30))
        await demo.shutdown()

        guard result.status == 0, let report = try? JSONDecoder().decode(Report.self, from: Data(result.standardOutput.utf8)) else {
            Issue.record("the browser script failed (status \(result.status)): \(result.standardError.suffix(2000))")
            return
        }
        #expect(report.walks.count == 8, "four users, two screen sizes")
        for walk in report.walks {
            #expect(walk.problems.isEmpty, "\(walk.user) at \(walk.width) px: \(walk.problems)")
            #expect(walk.pages.last?.h1 == "Signed in", "\(walk.user) at \(walk.width) px ended on \(walk.pages.last?.h1 ?? "nothing")")
        }
        let screenshots = try FileManager.default.contentsOfDirectory(atPath: shots.path).filter { $0.hasSuffix(".png") }
        #expect(screenshots.count == report.walks.reduce(0) { $0 + $1.pages.count })
    }
}
