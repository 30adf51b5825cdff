import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// Where the embedded demo's one-time codes are (issue #38): `serve` in front of the embedded demo upstream names the
/// demo's outbox in its banner and serves it at `/demo/outbox` on the gateway's own origin; in front of a real upstream
/// neither.
@Suite("The demo's outbox on the gateway", .startsPrograms())
struct DemoOutboxTests {
    /// The messages of an outbox document.
    static func messages(_ page: TestBrowser.Page) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(page.html.utf8)) as? [String: Any], "\(page.html)")
        return try #require(document["messages"] as? [[String: Any]])
    }

    @Test("serve with the embedded demo: the banner names /demo/outbox on the gateway, where otp's and sms's codes are, and they sign in")
    func embeddedDemoServesItsOutbox() async throws {
        let serve = try RunningGateway(["serve", "--port", "0"], environment: ["HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0"])
        let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        let outbox = try await serve.waitForOutput(#"The demo's one-time codes and approval links: (\S+)"#)
        #expect(outbox == base + "/demo/outbox")
        try await TestBrowser.using(base) { browser in
            let empty = try await browser.get("/demo/outbox")
            #expect(empty.status == 200)
            #expect(empty.header("Content-Type") == "application/json")
            #expect(empty.header("Content-Security-Policy") != nil, "the gateway's guards apply to it too")
            #expect(try Self.messages(empty).isEmpty)
            let done = try await browser.signIn(asDemoUser: "otp") {
                let sent = try Self.messages(try await browser.get("/demo/outbox"))
                let message = try #require(sent.first { $0["kind"] as? String == "one-time-code" }, "\(sent)")
                #expect(message["to"] as? String == "otp@example.com")
                return try #require(message["code"] as? String)
            } approve: {
            }
            #expect(done.html.contains("You are signed in"))
        }
        try await TestBrowser.using(base) { browser in
            let selector = try await browser.get("/")
            let login = try await browser.submit(try selector.form(button: "Username and password"))
            let password = try #require(login.forms.first { $0.inputs.contains { $0.type == "password" } })
            let send = try await browser.submit(password, ["userName": "sms", "password": "sms"])
            let sent = try await browser.submit(try send.form(button: "Send code"))
            let messages = try Self.messages(try await browser.get("/demo/outbox"))
            let code = try #require(messages.first { $0["kind"] as? String == "sms-code" }?["code"] as? String, "\(messages)")
            let done = try await browser.submit(try sent.form(button: "Verify"), ["otp": code])
            #expect(done.html.contains("You are signed in"))
        }
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit(timeout: .seconds(30)) == 0, "\(serve.standardError)")
    }

    @Test("serve in front of a real upstream: no /demo/outbox on the gateway, and the banner names none")
    func realUpstreamHasNoOutbox() async throws {
        let demo = try await DemoServer.start()
        do {
            let serve = try RunningGateway(
                [
                    "serve", "--port", "0", "--upstream", demo.issuer, "--client-id", DemoServer.clientID, "--client-secret",
                    DemoServer.clientSecret,
                ],
                environment: ["HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0"]
            )
            let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
            try await TestBrowser.using(base) { browser in
                let start = try await browser.get("/")
                #expect(start.status == 200, "the gateway serves its pages")
                let outbox = try await browser.get("/demo/outbox")
                #expect(outbox.status == 404)
            }
            serve.signal(SIGTERM)
            #expect(try await serve.waitForExit(timeout: .seconds(30)) == 0, "\(serve.standardError)")
            #expect(!serve.standardOutput.contains("outbox"), "\(serve.standardOutput)")
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }
}
