import Foundation
import HAAPI
import HAAPIDemoServer
import HummingbirdTesting
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// Token-bound authorization codes (Curity's per-client `issue-token-bound-authorization-code`: the exchange must carry a
/// DPoP proof by the flow's key, else `invalid_dpop_proof` [TOKENBIND], notes 5) against a server that uses a code up
/// when it refuses its exchange for a missing proof (Curity does not document whether it does): the strict demo with
/// `consumesCodesOnRefusedProof`. The gateway learns it once, at the cost of that one sign-in (a clear page, a warning),
/// and keeps it where it keeps state, so that a second sign-in, a restarted gateway and another replica prove at once.
@Suite("Token-bound codes against a server that uses a refused code up")
struct TokenBoundCodesTests {
    static var demoConfiguration: DemoServerConfiguration {
        var configuration = DemoServerConfiguration.strict
        configuration.consumesCodesOnRefusedProof = true
        // Without dpop_jkt required: the refused authorize request would show the binding before any code is spent.
        configuration.authorizationCodeDPoPBinding = .clientRequested
        return configuration
    }

    /// The page and log of the sign-in that paid for the finding.
    static func expectClearFailure(_ page: TestBrowser.Page, log: LogCapture? = nil) {
        #expect(page.html.contains("Sign-in failed") || page.html.contains("sign-in failed"), "\(page.html)")
        #expect(page.html.contains("It has learned it now: start again, and the sign-in will complete."), "\(page.html)")
        #expect(page.html.contains("Start again"), "\(page.html)")
        if let log {
            let line = log.text.split(separator: "\n").first { $0.hasPrefix("warning") && $0.contains("used this sign-in's code up") }
            #expect(line != nil, "\(log.text)")
            for phrase in [
                "issues token-bound authorization codes", "the next sign-ins prove every exchange at once",
                "upstream.bindTokensToDPoP: true avoids even this one",
            ] {
                #expect(line?.contains(phrase) == true, "\(phrase)")
            }
        }
    }

    @Test("the first sign-in fails with a clear page and a warning that says why; the second on the same gateway proves at once and succeeds")
    func aSecondSignInOnTheSameGatewaySucceeds() async throws {
        let log = LogCapture()
        try await GatewayHarness.withGateway(logger: log.logger, demoConfiguration: Self.demoConfiguration) { browser, _, sinkPath in
            Self.expectClearFailure(try await browser.signInAsDemo(), log: log)
            let outcome = try String(contentsOfFile: sinkPath, encoding: .utf8)
            #expect(outcome.contains(#""error":"invalid_grant""#), "the outcome's error stays invalid_grant: \(outcome)")
            try await TestBrowser.using(browser.baseURL) { again in
                let done = try await again.signInAsDemo()
                #expect(done.html.contains("You are signed in"), "\(done.html)")
            }
        }
    }

    @Test("with upstream.bindTokensToDPoP: true even the first sign-in proves its exchange and succeeds")
    func bindingTokensToDPoPAvoidsEvenTheFirstFailure() async throws {
        try await GatewayHarness.withGateway(
            demoConfiguration: Self.demoConfiguration,
            upstream: { demo in
                var upstream = GatewayHarness.upstream(demo: demo)
                upstream.bindTokensToDPoP = true
                return upstream
            }
        ) { browser, _, _ in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"), "\(done.html)")
        }
    }

    @Test(
        "with callbacks.spoolFile, what was learned is kept beside it (0600, nothing secret): a restarted gateway's first sign-in succeeds; without a spool it is learned again"
    )
    func aRestartedGatewayWithTheSameSpoolFileSucceedsAtOnce() async throws {
        let demo = try await DemoServer.start(configuration: Self.demoConfiguration)
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = directory.appendingPathComponent("spool.jsonl").path
        let facts = spool + ".upstream.json"
        do {
            let withSpool: @Sendable (inout GatewayConfiguration) -> Void = { $0.callbackDelivery.spoolFile = spool }
            let log = LogCapture()
            try await Self.withApplication(demo: demo, directory: directory, logger: log.logger, configure: withSpool) { browser in
                Self.expectClearFailure(try await browser.signInAsDemo(), log: log)
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: facts)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let kept = try String(contentsOfFile: facts, encoding: .utf8)
            #expect(
                kept.contains(#""tokenBoundCodes":true"#) && kept.contains(#""clientID":"\#(DemoServer.clientID)""#) && kept.contains(demo.issuer),
                "\(kept)"
            )
            #expect(!kept.contains(DemoServer.clientSecret), "nothing secret in it")

            let restartLog = LogCapture()
            try await Self.withApplication(demo: demo, directory: directory, logger: restartLog.logger, configure: withSpool) { browser in
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("You are signed in"), "\(done.html)")
            }
            #expect(restartLog.text.contains("learned before, kept in \(facts)"), "\(restartLog.text)")

            // Without a spool file the gateway keeps nothing: a new one learns it again, at the cost of its first sign-in.
            try await Self.withApplication(demo: demo, directory: directory, configure: { _ in }) { browser in
                Self.expectClearFailure(try await browser.signInAsDemo())
            }
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }

    @Test("a file of upstream facts that cannot be read is a warning, never a failed sign-in, and is replaced by what is learned")
    func anUnreadableFactFileIsAWarningOnly() async throws {
        let demo = try await DemoServer.start(configuration: .strict)
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = directory.appendingPathComponent("spool.jsonl").path
        try "not json".write(toFile: spool + ".upstream.json", atomically: true, encoding: .utf8)
        do {
            let log = LogCapture()
            try await Self.withApplication(demo: demo, directory: directory, logger: log.logger, configure: { $0.callbackDelivery.spoolFile = spool })
            {
                browser in
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("You are signed in"), "the strict demo keeps a refused code: \(done.html)")
            }
            #expect(log.text.contains("warning what the gateway learned about the upstream's code exchanges could not be read"), "\(log.text)")
            #expect(try String(contentsOfFile: spool + ".upstream.json", encoding: .utf8).contains(#""tokenBoundCodes":true"#))
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }

    /// A gateway (`Gateway.makeApplication`) in front of `demo`, with a file sink in `directory`, and a browser for it.
    static func withApplication(
        demo: RunningDemoServer,
        directory: URL,
        logger: Logger = Logger(label: "gateway-test", factory: { _ in SwiftLogNoOpLogHandler() }),
        configure: @Sendable (inout GatewayConfiguration) -> Void,
        _ body: @escaping @Sendable (TestBrowser) async throws -> Void
    ) async throws {
        var configuration = GatewayHarness.configuration(
            demo: demo,
            sinkPath: directory.appendingPathComponent("outcome-\(UUID().uuidString).json").path
        )
        configure(&configuration)
        let application = try await Gateway.makeApplication(configuration: configuration, logger: logger)
        try await application.test(.live) { client in
            try await TestBrowser.using("http://127.0.0.1:\(client.port!)") { browser in try await body(browser) }
        }
    }
}
