import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// Passkeys in a real browser: headless Chromium with a virtual authenticator creates a passkey through the built
/// gateway and signs in with it, then signs in with it alone, on a 1280 px desktop and a 375 px phone; once the
/// authenticator has lost it, the browser's refusal is announced and the password fallback offered; reached by IP
/// address (where the relying-party id `localhost` cannot be used) the page offers the password fallback instead.
/// Every page is scanned with axe-core (no serious or critical violation) and checked by the Nu validator. Screenshots go to
/// `artifacts/screenshots/passkey/`. Needs Debian's chromium and chromium-driver and Python's
/// selenium, which `.ci/run` installs.
///
/// Part of the serialized `BrowserSignInTests` suite, so that two Chromiums never share the machine's cores and neither
/// test clears the other's screenshots while it runs.
extension BrowserSignInTests {
    private struct PasskeyReport: Decodable {
        struct Walk: Decodable {
            struct Page: Decodable {
                let name: String
                let h1: String
            }
            let walk: String
            let user: String
            let width: Int
            let pages: [Page]
            let problems: [String]
        }
        let walks: [Walk]
        let seconds: Double
        let validatorErrors: [String]
    }

    @Test(.enabled(if: TestTools.browserAvailable, "needs chromium, chromium-driver and Python's selenium (.ci/run installs them)"))
    func aPasskeyIsCreatedAndSignsInInChromiumOnADesktopAndAPhone() async throws {
        let shots = Repository.root.appendingPathComponent("artifacts/screenshots/passkey")
        try? FileManager.default.removeItem(at: shots)
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let result = try await Self.runBrowserScript("passkey.py") { gateway, _ in [gateway, shots.path] }

        guard result.status == 0, let report = try? JSONDecoder().decode(PasskeyReport.self, from: Data(result.standardOutput.utf8)) else {
            Issue.record("the browser script failed (status \(result.status)): \(result.standardError.suffix(2000))")
            return
        }
        let walks = ["register", "passkey-only", "passkey-gone", "fallback"]
        #expect(report.walks.map(\.walk) == walks + walks)
        for walk in report.walks {
            #expect(walk.problems.isEmpty, "\(walk.walk) (\(walk.user)) at \(walk.width) px: \(walk.problems)")
            // Without its passkey the person ends on the password login the fallback leads to.
            let end = walk.walk == "passkey-gone" ? "Login" : "Signed in"
            #expect(walk.pages.last?.h1 == end, "\(walk.walk) at \(walk.width) px ended on \(walk.pages.last?.h1 ?? "nothing")")
        }
        let screenshots = try FileManager.default.contentsOfDirectory(atPath: shots.path).filter { $0.hasSuffix(".png") }
        #expect(screenshots.count == report.walks.reduce(0) { $0 + $1.pages.count })
        #expect(report.validatorErrors.isEmpty, "the Nu validator: \(report.validatorErrors)")
    }
}
