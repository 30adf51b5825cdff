import Foundation
import Testing

@testable import GatewayTestSupport

/// `sessions.store: postgres` with real processes: `haapi-gateway serve` twice on one PostgreSQL database (a server of the
/// test's own), a `demo-server` process as their upstream, a browser whose requests go to the gateways in turn.
@Suite(
    "Sign-ins shared by gateway processes through PostgreSQL", .serialized,
    .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)"))
struct SharedSessionsAcrossProcessesTests {
    private static func login(_ browser: TestBrowser, option: String, user: String) async throws -> TestBrowser.Page {
        let selector = try await browser.get("/")
        let login = try await browser.submit(try selector.form(button: option))
        guard let form = login.forms.first(where: { $0.inputs.contains { $0.type == "password" } }) else {
            throw TestBrowser.BrowserError("no password form in:\n\(login.html)")
        }
        return try await browser.submit(form, ["userName": user, "password": user])
    }

    @Test(
        "two gateway processes, one database: demo, otp, poll (waiting page) and consent alternate between them page by page and complete; each outcome is delivered once"
    ) func alternatingProcesses() async throws {
        try await SharedStoreGateways.run { shared in
            let (_, first) = try await shared.start()
            let (_, second) = try await shared.start()
            for user in ["demo", "otp", "poll", "consent"] {
                try await TestBrowser(roundRobin: [first, second]).closing { browser in
                    var page: TestBrowser.Page
                    switch user {
                    case "demo":
                        let notice = try await Self.login(browser, option: "Username and password", user: "demo")
                        page = try await browser.submit(try notice.form(button: "Continue"))
                    case "otp":
                        let codePage = try await Self.login(browser, option: "Email one-time code", user: "otp")
                        let form = try #require(codePage.forms.first { $0.inputs.contains { $0.name == "otp" } }, "\(codePage.html)")
                        let code = try #require(try await shared.outbox().first { $0["code"] is String }?["code"] as? String)
                        page = try await browser.submit(form, ["otp": code])
                    case "poll":
                        let pending = try await Self.login(browser, option: "Approve on another device", user: "poll")
                        let poll = try #require(
                            ScrapedForm.matches(#"<meta http-equiv="refresh" content="\d+; ?url=([^"]+)">"#, in: pending.html).first,
                            "\(pending.html)")
                        let still = try await browser.get(poll)
                        #expect(still.html.contains("http-equiv=\"refresh\""), "still waiting, on the other process: \(still.html)")
                        try await shared.approve()
                        page = try await browser.get(poll)
                    default:
                        let consent = try await Self.login(browser, option: "Username and password", user: "consent")
                        let form = try #require(consent.forms.first { $0.inputs.contains { $0.type == "checkbox" } }, "\(consent.html)")
                        page = try await browser.submit(form)
                    }
                    #expect(page.html.contains("You are signed in"), "\(user): \(page.html)")
                    let served = browser.served
                    #expect(Set(served) == [first, second], "\(user): both processes served it")
                }
            }
            var delivered = try shared.deliveries()
            for _ in 0..<40 where delivered.count < 4 {
                try await Task.sleep(for: .milliseconds(250))
                delivered = try shared.deliveries()
            }
            #expect(delivered.count == 4, "one delivery per sign-in: \(delivered)")
            try await Task.sleep(for: .seconds(1))
            #expect(try shared.deliveries() == delivered, "and never a second one")
        }
    }

    @Test(
        "a gateway killed with SIGKILL in the middle of a sign-in: restarted, the person goes on from the page they had; with a second process they never notice"
    ) func killedMidSignIn() async throws {
        try await SharedStoreGateways.run { shared in
            let (gateway, url) = try await shared.start()
            let port = try #require(URL(string: url)?.port)
            try await TestBrowser.using(url) { browser in
                let form = try await browser.openPasswordForm()
                kill(gateway.processIdentifier, SIGKILL)
                _ = try await gateway.waitForExit(timeout: .seconds(10))
                // The same address again, as a supervisor restarts it.
                let (_, restarted) = try await shared.start(port: port)
                #expect(restarted == url)
                let again = try await browser.get("/")
                #expect(again.html.contains(#"type="password""#), "the password form again, not a new sign-in: \(again.html)")
                let notice = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                #expect(try await browser.submit(try notice.form(button: "Continue")).html.contains("You are signed in"))
            }

            // Two processes: one is killed between two pages; the next request goes to the other and the sign-in goes on.
            let (doomed, doomedURL) = try await shared.start()
            try await TestBrowser.using(doomedURL) { other in
                try await TestBrowser.using(url) { survivor in
                    let otherForm = try await other.openPasswordForm()
                    kill(doomed.processIdentifier, SIGKILL)
                    for (name, value) in other.cookies { survivor.setCookie(name, value) }
                    let continued = try await survivor.submit(otherForm, ["userName": "demo", "password": "demo"])
                    #expect(try await survivor.submit(try continued.form(button: "Continue")).html.contains("You are signed in"))
                }
            }
            #expect(try shared.deliveries().count == 2)
        }
    }
}
