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
                connectTimeout: .seconds(1),
                requestTimeout: .seconds(1)
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
                    let early = try await browser.get(ticket.path)
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
                    await demo.shutdown()
                }
            }
        }

        @Test("the link shows the code and host, nothing starts before the click, a second use and a wrong token get 410 'already used'")
        func confirmationAndSingleUse() async throws {
            let ticket = PairingTicket.make(lifetime: .seconds(120))
            try await GatewayHarness.withGateway(configure: { $0.pairing = PairingSettings(ticket: ticket, hostName: "build-host-7") }) {
                browser,
                demo,
                _ in
                let confirm = try await browser.get(ticket.path)
                #expect(confirm.status == 200)
                #expect(confirm.html.contains(ticket.code) && confirm.html.contains("build-host-7"))
                #expect(!confirm.html.contains("Username and password"), "the flow has not started")
                #expect(browser.locations == ["/"], "the single-use URL leaves the address bar")
                try await TestBrowser.using(browser.baseURL) { other in
                    let reused = try await other.get(ticket.path)
                    #expect(reused.status == 410)
                    #expect(reused.html.contains("already used or has expired"))
                    let wrong = try await other.get("/pair/" + String(ticket.token.reversed()))
                    #expect(wrong.status == 410)
                }
                let started = try await browser.submit(try confirm.form(button: "It matches, continue"))
                #expect(started.html.contains("Username and password"))
                _ = demo
            }
        }
    }
}
