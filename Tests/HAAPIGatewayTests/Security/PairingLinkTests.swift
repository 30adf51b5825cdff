import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// B12: the `login` pairing link shows the terminal's code and host and does nothing before a click; it works once.
    @Suite("Pairing link: confirmation first, single use")
    struct PairingLinkTests {
        @Test("the link shows the code and host, nothing starts before the click, a second use and a wrong token get 410 'already used'")
        func confirmationAndSingleUse() async throws {
            let ticket = PairingTicket.make(lifetime: .seconds(120))
            try await GatewayHarness.withGateway(configure: { $0.pairing = PairingSettings(ticket: ticket, hostName: "build-host-7") }) { browser, demo, _ in
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
