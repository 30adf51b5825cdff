import Foundation
import HAAPIGateway
import Synchronization
import Testing

@testable import GatewayTestSupport

/// A reload replaces the configuration in effect, and nothing else is handed the new settings: each store, limiter and
/// the callback dispatcher reads its part at its next operation (``SettingsSource``). Each test changes one component's
/// settings on a running gateway and sees that component act on them at once, so a component made with the settings of
/// the start (a fixed copy) fails its test.
@Suite("A reload reaches every component", .serialized)
struct ReloadReachesEveryComponentTests {
    /// The configuration a gateway started with, changed and applied by its reloader.
    final class Reload: Sendable {
        let reloader = GatewayReloader()
        private let started = Mutex<GatewayConfiguration?>(nil)

        func capture(_ configuration: GatewayConfiguration) { started.withLock { $0 = configuration } }

        /// Applies the started configuration with `change`, expecting it to take effect at once.
        func apply(_ change: (inout GatewayConfiguration) -> Void) async throws {
            var configuration = try #require(started.withLock { $0 })
            change(&configuration)
            let outcome = await reloader.reload(configuration)
            #expect(outcome.applied && outcome.problems.isEmpty && outcome.needsRestart.isEmpty, "\(outcome)")
        }
    }

    @Test("the failed-post bound: after a reload lowers sessions.maximumFailedPostsPerSession to 1, the post after one wrong password is 429")
    func failedPostLimiter() async throws {
        let reload = Reload()
        try await GatewayHarness.withGateway(reloader: reload.reloader, configure: { reload.capture($0) }) { browser, _, _ in
            let form = try await browser.openPasswordForm()
            try await reload.apply { $0.sessions.maximumFailedPostsPerSession = 1 }
            let wrong = try await browser.submit(form, ["userName": "demo", "password": "wrong"])
            #expect(wrong.status == 200 && wrong.html.contains("Incorrect username or password"))
            let retry = try #require(wrong.forms.first { $0.inputs.contains { $0.type == "password" } })
            #expect(try await browser.submit(retry, ["userName": "demo", "password": "demo"]).status == 429)
        }
    }

    @Test("the new-sign-in budget: after a reload sets sessions.maximumNewSessionsPerAddress to 1 (it was off), the second new browser is 429")
    func newSessionBudget() async throws {
        let reload = Reload()
        try await GatewayHarness.withGateway(
            reloader: reload.reloader,
            configure: {
                $0.sessions.maximumNewSessionsPerAddress = 0
                reload.capture($0)
            }
        ) { browser, _, _ in
            for _ in 0..<3 { #expect(try await Self.newBrowserOpens(browser.baseURL) == 200, "no bound yet") }
            try await reload.apply { $0.sessions.maximumNewSessionsPerAddress = 1 }
            #expect(try await Self.newBrowserOpens(browser.baseURL) == 200)
            #expect(try await Self.newBrowserOpens(browser.baseURL) == 429)
        }
    }

    @Test("the session store: after a reload shortens sessions.idleTimeoutSeconds, a sign-in left alone longer expires (injected clock)")
    func sessionLifetimes() async throws {
        let clock = TestClock()
        let reload = Reload()
        try await GatewayHarness.withGateway(
            now: { clock.instant },
            reloader: reload.reloader,
            configure: {
                $0.sessions.idleTimeoutSeconds = 600
                reload.capture($0)
            }
        ) { browser, _, _ in
            let form = try await browser.openPasswordForm()
            try await reload.apply { $0.sessions.idleTimeoutSeconds = 60 }
            clock.advance(.seconds(61))
            let late = try await browser.submit(form, ["userName": "demo", "password": "demo"])
            #expect(late.html.contains("Session expired"), "idle 61 s, past the new 60 s")
        }
    }

    @Test("device authorizations: after a reload lowers devices.maximumPendingAuthorizations to 1, a second device is refused (503)")
    func deviceAuthorizations() async throws {
        let reload = Reload()
        try await DeviceAuthorizationTests.withDevice(
            reloader: reload.reloader,
            configure: {
                $0.devices.maximumPendingAuthorizations = 10
                reload.capture($0)
            }
        ) { device, _, _ in
            _ = try await device.authorize()
            try await reload.apply { $0.devices.maximumPendingAuthorizations = 1 }
            let refused = try await device.post("/oauth/device_authorization", [])
            #expect(refused.status == 503 && refused.json["error"] as? String == "temporarily_unavailable", "\(refused.json)")
        }
    }

    @Test("wrong user codes: after a reload lowers devices.maximumWrongCodesPerAddress to 1, the entry after one wrong code is 429")
    func userCodeAttempts() async throws {
        let reload = Reload()
        try await DeviceAuthorizationTests.withDevice(reloader: reload.reloader, configure: { reload.capture($0) }) { _, person, _ in
            #expect(try await DeviceCodeGuardTests.enter("BBBB-BBBB", person).status == 400)
            try await reload.apply { $0.devices.maximumWrongCodesPerAddress = 1 }
            #expect(try await DeviceCodeGuardTests.enter("CCCC-CCCC", person).status == 429)
        }
    }

    @Test(
        "start links: after a reload rotates startLinks.secret with no previous secret, a link signed with the old one is refused, the new one's works"
    )
    func startLinks() async throws {
        let reload = Reload()
        let newSecret = "the-rotated-start-link-secret-0123456"
        try await GatewayHarness.withGateway(
            reloader: reload.reloader,
            configure: {
                StartLinkEndToEndTests.configure(&$0)
                reload.capture($0)
            }
        ) { browser, _, _ in
            #expect(try await browser.get(StartLinkEndToEndTests.link(["ref": "before"])).status == 200)
            try await reload.apply { $0.startLinks.secret = newSecret }
            #expect(try await browser.get(StartLinkEndToEndTests.link(["ref": "old secret"])).status == 403)
            #expect(try await browser.get(StartLinkEndToEndTests.link(["ref": "new secret"], secret: newSecret)).status == 200)
        }
    }

    @Test("callbacks: after a reload names another file sink, the next sign-in's outcome goes there and not to the sink of the start")
    func callbackDispatcher() async throws {
        let reload = Reload()
        try await GatewayHarness.withGateway(reloader: reload.reloader, configure: { reload.capture($0) }) { browser, _, sinkPath in
            let other = sinkPath + ".reloaded"
            try await reload.apply { $0.callbacks = [.file(path: other)] }
            #expect(try await browser.signInAsDemo().html.contains("You are signed in"))
            let outcome = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: other))) as? [String: Any]
            #expect(outcome?["outcome"] as? String == "success")
            #expect(!FileManager.default.fileExists(atPath: sinkPath), "the sink of the start received nothing")
        }
    }

    /// The status of the first page of a browser with no cookie.
    static func newBrowserOpens(_ baseURL: String) async throws -> Int {
        try await TestBrowser.using(baseURL) { try await $0.get("/").status }
    }
}
