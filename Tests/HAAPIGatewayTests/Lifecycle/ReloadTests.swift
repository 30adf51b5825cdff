import Foundation
import HAAPIGateway
import Synchronization
import Testing

@testable import GatewayTestSupport

@Suite("Reloading the configuration while running", .serialized)
struct ReloadTests {
    private func overrides(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("messages"), withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return directory
    }

    @Test("texts, templates and settings take effect at once; the sign-in under way goes on")
    func appliesAtOnce() async throws {
        let reloader = GatewayReloader()
        let started = Mutex<GatewayConfiguration?>(nil)
        try await GatewayHarness.withGateway(reloader: reloader, configure: { configuration in started.withLock { $0 = configuration } }) {
            browser,
            _,
            _ in
            let before = try await browser.get("/")
            #expect(before.html.contains("Cancel sign-in"))
            var configuration = try #require(started.withLock { $0 })
            configuration.templates.overrideDirectory = try overrides(["messages/en.json": #"{"cancelSignIn": "Abort the sign-in"}"#])
            configuration.completion.confirmCancel = false
            let outcome = await reloader.reload(configuration)
            #expect(outcome.applied)
            #expect(outcome.needsRestart.isEmpty)
            let after = try await browser.get("/")
            #expect(after.html.contains("Abort the sign-in"), "the same session, rendered with the new texts")
            let cancelled = try await browser.submit(try after.form(button: "Abort the sign-in"))
            #expect(cancelled.html.contains("The sign-in was cancelled"), "no confirmation any more")
        }
    }

    @Test("a new client secret takes effect at once, without a restart: a wrong one refuses new sign-ins, the right one again signs in")
    func clientSecretIsReplaced() async throws {
        let reloader = GatewayReloader()
        let started = Mutex<GatewayConfiguration?>(nil)
        try await GatewayHarness.withGateway(reloader: reloader, configure: { configuration in started.withLock { $0 = configuration } }) {
            browser,
            _,
            _ in
            let running = try #require(started.withLock { $0 })
            guard case .haapi(var upstream) = running.upstream else {
                Issue.record("no HAAPI upstream")
                return
            }
            var rotated = running
            upstream.clientAuthentication = .secretBasic("not-the-demo-secret")
            rotated.upstream = .haapi(upstream)
            let outcome = await reloader.reload(rotated)
            #expect(outcome.applied && outcome.needsRestart.isEmpty, "\(outcome)")
            let refused = try await TestBrowser.using(browser.baseURL) { try await $0.get("/") }
            #expect(refused.status == 502, "the HAAPI token request used the new (wrong) secret")
            #expect(refused.html.contains("Try again"))

            #expect(await reloader.reload(running).applied)
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))

            var otherMethod = running
            upstream.clientAuthentication = .secretPost("demo-secret")
            otherMethod.upstream = .haapi(upstream)
            #expect(await reloader.reload(otherMethod).needsRestart == ["upstream.clientAuthentication"], "another method needs a restart")
        }
    }

    @Test(
        "broken templates are refused and the running configuration stays; a new port, connection bound, drain length or health routes wait for a restart, naming the setting"
    )
    func refusesAndReports() async throws {
        let reloader = GatewayReloader()
        let started = Mutex<GatewayConfiguration?>(nil)
        try await GatewayHarness.withGateway(reloader: reloader, configure: { configuration in started.withLock { $0 = configuration } }) {
            browser,
            _,
            _ in
            var broken = try #require(started.withLock { $0 })
            broken.templates.overrideDirectory = try overrides(["step.mustache": "{{#unclosed}}"])
            let refused = await reloader.reload(broken)
            #expect(!refused.applied)
            #expect(refused.problems.first?.contains("step.mustache does not parse") == true)
            #expect(try await browser.get("/").html.contains("Cancel sign-in"))

            var moved = try #require(started.withLock { $0 })
            moved.server.port = 1
            let outcome = await reloader.reload(moved)
            #expect(outcome.applied)
            #expect(outcome.needsRestart == ["server.port"])
            #expect(try await browser.get("/").status == 200, "still serving where it was")

            // The connection bounds are the listener's, the drain's length and the health routes are read at start: each
            // change waits for a restart too (and says so).
            // Each is named by its key.
            let changes: [(key: String, change: (inout ServerSettings) -> Void)] = [
                ("server.requestTimeoutSeconds", { $0.requestTimeoutSeconds = 3 }), ("server.maximumConnections", { $0.maximumConnections = 100 }),
                ("server.maximumConnectionsPerAddress", { $0.maximumConnectionsPerAddress = 0 }), ("server.drainSeconds", { $0.drainSeconds = 30 }),
                ("server.healthEndpoints", { $0.healthEndpoints = false }),
            ]
            for (key, change) in changes {
                var bounded = try #require(started.withLock { $0 })
                change(&bounded.server)
                let outcome = await reloader.reload(bounded)
                #expect(outcome.needsRestart == [key])
            }
        }
    }
}
