import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `haapi-gateway login` run as a person would: read the link from the terminal, open it in a browser, confirm the code,
/// sign in; then check the exit status, the summary line and the token file.
@Suite(.startsPrograms()) struct LoginCommandTests {
    private func tokenDirectory() throws -> URL {
        let directory = try Repository.temporaryDirectory().appendingPathComponent("private")
        return directory
    }

    @Test func signInFromAnotherDeviceWritesAPrivateTokenFileAndExits0() async throws {
        let directory = try tokenDirectory()
        let tokenFile = directory.appendingPathComponent("tokens.json")
        // The embedded demo in its strict mode (--demo-strict): token-bound codes, so the tokens come bound with their key.
        let login = try RunningGateway(
            ["login", "--port", "0", "--token-file", tokenFile.path, "--timeout-seconds", "120", "--demo-strict"],
            environment: TokenKeeperTests.patient
        )
        let link = try await login.waitForOutput(#"(http://127\.0\.0\.1:\d+/pair/[A-Za-z0-9_-]+)"#)
        let code = try await login.waitForOutput(#"shows the code ([B-Z]{4}-[B-Z]{4})"#)
        let url = try #require(URL(string: link))
        try await TestBrowser.using("http://127.0.0.1:\(url.port!)") { browser in
            // Opening the link shows the code and the host, and nothing has started yet.
            let confirm = try await browser.get(url.path)
            #expect(confirm.html.contains(code))
            #expect(confirm.html.contains(ProcessInfo.processInfo.hostName))
            #expect(!confirm.html.contains("Username and password"))

            let selector = try await browser.submit(try confirm.form(button: "It matches, continue"))
            #expect(selector.html.contains("Username and password"))

            // The link works once: a second browser (or a second click) is refused.
            try await TestBrowser.using(browser.baseURL) { other in
                let reused = try await other.get(url.path)
                #expect(reused.status == 410)
                #expect(reused.html.contains("already used or has expired"))
                let noLink = try await other.get("/")
                #expect(noLink.html.contains("Open the link shown in your terminal"), "no other sign-in can start")
            }
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
        }

        #expect(try await login.waitForExit() == 0, "\(login.standardError)")
        let summary = login.standardOutput
        #expect(summary.contains("Signed in as demo with scopes openid profile email"), "\(summary)")
        #expect(summary.contains("Tokens written to \(tokenFile.path) (mode 0600)"))
        let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((directoryAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let document = try JSONSerialization.jsonObject(with: try Data(contentsOf: tokenFile)) as? [String: Any]
        #expect(document?["outcome"] as? String == "success")
        let token = try #require(document?["token"] as? [String: Any])
        let accessToken = try #require(token["accessToken"] as? String)
        #expect(token["tokenType"] as? String == "DPoP")
        #expect((document?["dpopPrivateKey"] as? String)?.contains("PRIVATE KEY") == true)
        #expect(!summary.contains(accessToken), "never a token in the terminal")
        #expect(!login.standardError.contains(accessToken))
    }

    /// Against a server that issues token-bound codes and uses a code up when it refuses its exchange for a missing proof
    /// (Curity does not document whether it does): the first run ever learns it the hard way, with a clear page and a
    /// warning, and keeps it beside the token file; the next run proves its exchange at once and signs in.
    @Test func aSecondLoginRunProvesAtOnceWhatTheFirstLearnedAboutTokenBoundCodes() async throws {
        var demoConfiguration = DemoServerConfiguration.strict
        demoConfiguration.consumesCodesOnRefusedProof = true
        // Without dpop_jkt required: the refused authorize request would show the binding before any code is spent.
        demoConfiguration.authorizationCodeDPoPBinding = .clientRequested
        let demo = try await DemoServer.start(configuration: demoConfiguration)
        do {
            let directory = try tokenDirectory()
            let tokenFile = directory.appendingPathComponent("tokens.json")
            let arguments = [
                "login", "--port", "0", "--token-file", tokenFile.path, "--timeout-seconds", "120", "--upstream", demo.issuer, "--client-id",
                DemoServer.clientID, "--client-secret", DemoServer.clientSecret,
            ]
            let first = try RunningGateway(arguments, environment: TokenKeeperTests.patient)
            let failed = try await first.pairAndSignIn()
            #expect(failed.html.contains("It has learned it now: start again"), "\(failed.html)")
            #expect(try await first.waitForExit() == 1, "\(first.standardError)")
            #expect(first.standardError.contains("invalid_grant"))
            #expect(first.standardError.contains("upstream.bindTokensToDPoP: true avoids even this one"), "\(first.standardError)")
            #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
            let facts = directory.appendingPathComponent(".haapi-gateway-upstream.json")
            let attributes = try FileManager.default.attributesOfItem(atPath: facts.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let kept = try String(contentsOf: facts, encoding: .utf8)
            #expect(kept.contains(#""tokenBoundCodes":true"#) && kept.contains(demo.issuer), "\(kept)")
            #expect(!kept.contains(DemoServer.clientSecret), "nothing secret in it")

            let second = try RunningGateway(arguments, environment: TokenKeeperTests.patient)
            let done = try await second.pairAndSignIn()
            #expect(done.html.contains("You are signed in"), "\(done.html)")
            #expect(try await second.waitForExit() == 0, "\(second.standardError)")
            #expect(second.standardOutput.contains("Signed in as demo"), "\(second.standardOutput)")
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }

    @Test func noSignInBeforeTheLinkExpiresExits2() async throws {
        let tokenFile = try tokenDirectory().appendingPathComponent("tokens.json")
        let login = try RunningGateway(["login", "--port", "0", "--token-file", tokenFile.path, "--timeout-seconds", "2", "--json"])
        #expect(try await login.waitForExit() == 2)
        #expect(login.standardError.contains("/pair/"), "with --json the link goes to standard error")
        #expect(login.standardError.contains("no sign-in within 2 s"))
        #expect(login.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"outcome":"timeout"}"#)
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
    }

    @Test func aCodeThatDoesNotMatchCancelsAndExits1() async throws {
        let tokenFile = try tokenDirectory().appendingPathComponent("tokens.json")
        let login = try RunningGateway(
            ["login", "--port", "0", "--token-file", tokenFile.path, "--timeout-seconds", "120", "--json"],
            environment: TokenKeeperTests.patient
        )
        let url = try #require(URL(string: try await waitForLink(login)))
        try await TestBrowser.using("http://127.0.0.1:\(url.port!)") { browser in
            let confirm = try await browser.get(url.path)
            let cancelled = try await browser.submit(try confirm.form(button: "It does not match, cancel"))
            #expect(cancelled.html.contains("The sign-in was cancelled"))
        }
        #expect(try await login.waitForExit() == 1)
        #expect(login.standardError.contains("the sign-in was cancelled"))
        #expect(login.standardOutput.contains(#"{"outcome":"cancelled"}"#))
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
    }

    @Test func aTokenDirectoryOthersCanEnterIsRefused() async throws {
        let shared = try Repository.temporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: shared.path)
        let result = try await runGateway(
            ["login", "--port", "0", "--token-file", shared.appendingPathComponent("tokens.json").path],
            directory: Repository.root
        )
        #expect(result.status == 78)
        #expect(result.standardError.contains("accessible by other users"))
    }

    private func waitForLink(_ login: RunningGateway) async throws -> String {
        // With --json the banner is on standard error.
        let deadline = ContinuousClock.now + .seconds(60)
        let expression = try NSRegularExpression(pattern: #"(http://127\.0\.0\.1:\d+/pair/[A-Za-z0-9_-]+)"#)
        while ContinuousClock.now < deadline {
            let text = login.standardError
            if let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range(at: 1), in: text)
            {
                return String(text[range])
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(.fileReadUnknown)
    }
}
