import Foundation
import HAAPI
import HAAPIDemoServer
import HAAPIGateway
import HummingbirdTesting
import Logging
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// B12: the `login` pairing link shows the terminal's code and host and does nothing before a click; it works once.
    @Suite("Pairing link: confirmation first, single use")
    struct PairingLinkTests {
        @Test("opened while the upstream is not reached yet, the link answers 'try again' (503) and still works once it is")
        func linkSurvivesAnUpstreamNotReadyYet() async throws {
            let ticket = PairingTicket.make(lifetime: .seconds(120))
            let port = try await UpstreamProxy.freeLoopbackPort()
            let upstream = HAAPIClientConfiguration(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(port)/oauth/v2/oauth-anonymous")),
                clientID: DemoServer.clientID,
                clientAuthentication: .secretBasic(DemoServer.clientSecret),
                redirectURI: DemoServer.redirectURI,
                scopes: ["openid"],
                // Nothing listens on the port at first: refused at once, whatever the timeout. Once the demo runs, a loaded
                // machine's calls take their time (at 1 s the first step's page was an upstream failure in a full run).
                connectTimeout: .seconds(10),
                requestTimeout: .seconds(10)
            )
            var configuration = GatewayConfiguration(
                server: ServerSettings(host: "127.0.0.1", port: 0),
                upstream: .haapi(upstream),
                templates: TemplateSettings(directory: GatewayHarness.templatesDirectory)
            )
            configuration.pairing = PairingSettings(ticket: ticket, hostName: "build-host-7")
            let application = try await Gateway.makeApplication(configuration: configuration, logger: Logger(label: "pairing-test"))
            try await application.test(.live) { client in
                try await TestBrowser.using("http://127.0.0.1:\(client.port!)") { browser in
                    let page = try await browser.get(ticket.path)
                    #expect(page.status == 200 && page.html.contains(ticket.code), "the link's page needs no upstream")
                    let early = try await browser.submit(try page.form(button: "It matches, continue"))
                    #expect(early.status == 503 && early.html.contains("Sign-in is unavailable at the moment"))
                    let demo = try await DemoServer.start(configuration: DemoServerConfiguration(port: port))
                    var ready = false
                    for _ in 0..<200 where !ready {
                        ready = try await browser.get("/readyz").status == 200
                        if !ready { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    #expect(ready)
                    let confirm = try await browser.get(ticket.path)
                    #expect(confirm.status == 200 && confirm.html.contains(ticket.code), "the link was not used up by the early visit")
                    let started = try await browser.submit(try confirm.form(button: "It matches, continue"))
                    #expect(started.html.contains("Username and password"))
                    await demo.shutdown()
                }
            }
        }

        /// Link scanners and chat previews fetch a link (`HEAD`, then `GET`) before the person opens it: as an adversarial
        /// probe found, `HEAD /pair/<token>` once answered 303 with a session cookie, the person's `GET` got 410, and
        /// the `HEAD`'s cookie could finish the sign-in.
        @Test(
            "the link shows the code and host and uses nothing: HEAD, a preview's GET and the person's GET leave it working; only the post uses it, once; a wrong token gets 410"
        )
        func confirmationAndSingleUse() async throws {
            let ticket = PairingTicket.make(lifetime: .seconds(120))
            try await GatewayHarness.withGateway(configure: { $0.pairing = PairingSettings(ticket: ticket, hostName: "build-host-7") }) {
                browser,
                _,
                _ in
                try await TestBrowser.using(browser.baseURL) { preview in
                    let head = try await preview.head(ticket.path)
                    #expect(head.status == 200 && head.header("Set-Cookie") == nil, "HEAD: \(head.status) \(head.headers)")
                    let fetched = try await preview.get(ticket.path)
                    #expect(fetched.status == 200 && fetched.header("Set-Cookie") == nil)
                    #expect(preview.cookies.isEmpty, "a preview holds no sign-in")
                }
                let confirm = try await browser.get(ticket.path)
                #expect(confirm.status == 200)
                #expect(confirm.html.contains(ticket.code) && confirm.html.contains("build-host-7"))
                #expect(!confirm.html.contains("Username and password"), "the flow has not started")
                #expect(browser.cookies.isEmpty, "nothing is held before the click")
                let started = try await browser.submit(try confirm.form(button: "It matches, continue"))
                #expect(started.html.contains("Username and password"))
                #expect(browser.locations.last == "/", "the single-use URL leaves the address bar")
                try await TestBrowser.using(browser.baseURL) { other in
                    let reused = try await other.get(ticket.path)
                    #expect(reused.status == 410)
                    #expect(reused.html.contains("already used or has expired"))
                    let posted = try await other.post(ticket.path, body: "")
                    #expect(posted.status == 410 && other.cookies.isEmpty, "a second post gets nothing")
                    let wrong = try await other.get("/pair/" + String(ticket.token.reversed()))
                    #expect(wrong.status == 410)
                }
            }
        }

        @Test("a post to the link from another site is refused and leaves it working")
        func crossSitePostIsRefused() async throws {
            let ticket = PairingTicket.make(lifetime: .seconds(120))
            try await GatewayHarness.withGateway(configure: { $0.pairing = PairingSettings(ticket: ticket, hostName: "build-host-7") }) {
                browser,
                _,
                _ in
                let forged = try await browser.post(ticket.path, body: "", headers: [("Sec-Fetch-Site", "cross-site")])
                #expect(forged.status == 403 && browser.cookies.isEmpty)
                let confirm = try await browser.get(ticket.path)
                #expect(try await browser.submit(try confirm.form(button: "It matches, continue")).html.contains("Username and password"))
            }
        }
    }
}
