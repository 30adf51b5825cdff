import Foundation
import HAAPIGateway
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGatewayPostgres

@Suite("Kiosk mode")
struct KioskModeTests {
    static func kiosk(_ configuration: inout GatewayConfiguration) {
        configuration.kiosk = KioskSettings(enabled: true, resetAfterSeconds: 7, idleResetSeconds: 90)
    }

    private static func refresh(_ html: String) -> String? {
        ScrapedForm.matches(#"<meta http-equiv="refresh" content="([^"]+)">"#, in: html).first
    }

    @Test("after a sign-in the session is destroyed at once and the final page returns to the start by itself")
    func finishedSignInResets() async throws {
        try await GatewayHarness.withGateway(configure: Self.kiosk) { browser, _, sinkPath in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            #expect(Self.refresh(done.html) == "7; url=/kiosk/next")
            #expect(browser.cookies.isEmpty, "the session cookie is cleared")
            #expect(FileManager.default.fileExists(atPath: sinkPath), "the tokens were handed over first")
            // The next person gets a new sign-in.
            let next = try await browser.get("/kiosk/next")
            #expect(next.html.contains("Username and password"))
            #expect(!browser.cookies.isEmpty)
        }
    }

    @Test("the final page tells only the browser that finished: anyone else opening /kiosk/done/signed-in (or a planted ticket) gets the start")
    func finalPageOnlyForTheBrowserThatFinished() async throws {
        try await GatewayHarness.withGateway(configure: Self.kiosk) { browser, _, _ in
            #expect(try await browser.signInAsDemo().html.contains("You are signed in"))
            try await TestBrowser.using(browser.baseURL) { stranger in
                for outcome in ["signed-in", "delayed", "cancelled"] {
                    let page = try await stranger.get("/kiosk/done/\(outcome)")
                    #expect(!page.html.contains("You are signed in") && !page.html.contains("cancelled"), "\(outcome)")
                    #expect(page.html.contains("Username and password"), "the start instead")
                }
                stranger.setCookie("haapi-gateway-done", String(repeating: "a", count: 43) + ".forged")
                #expect(!(try await stranger.get("/kiosk/done/signed-in")).html.contains("You are signed in"))
            }
            // The ticket was used up by the page it opened.
            #expect(!(try await browser.get("/kiosk/done/signed-in")).html.contains("You are signed in"))
        }
    }

    @Test("behind https every cookie of a kiosk sign-in is Secure, the final page's ticket and its clearing among them")
    func cookiesBehindHTTPS() async throws {
        let configure: @Sendable (inout GatewayConfiguration) -> Void = { configuration in
            Self.kiosk(&configuration)
            configuration.server.publicBaseURL = URL(string: "https://gateway.example")
        }
        try await GatewayHarness.withGateway(configure: configure) { browser, _, _ in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            let tickets = browser.setCookieHeaders.filter { $0.hasPrefix("__Secure-haapi-gateway-done=") }
            #expect(tickets.count == 2, "the ticket, and its clearing by the final page: \(browser.setCookieHeaders)")
            #expect(tickets.last?.contains("Max-Age=0") == true)
            for header in browser.setCookieHeaders {
                #expect(header.contains("; Secure"), "\(header)")
            }
        }
    }

    @Test("fields never autocomplete; step pages reset after kiosk.idleResetSeconds; cancel still asks first")
    func stepPages() async throws {
        try await GatewayHarness.withGateway(configure: Self.kiosk) { browser, _, _ in
            _ = try await browser.openPasswordForm()
            let login = try await browser.get("/")
            #expect(!login.html.contains(#"autocomplete="username""#))
            #expect(!login.html.contains(#"autocomplete="current-password""#))
            #expect(login.html.contains(#"autocomplete="off""#))
            #expect(Self.refresh(login.html) == "90; url=/kiosk/next")
            let confirm = try await browser.submit(try login.form(button: "Cancel sign-in"))
            #expect(confirm.html.contains("Do you want to cancel signing in?"))
            let cancelled = try await browser.submit(try confirm.form(button: "Yes, cancel sign-in"))
            #expect(cancelled.html.contains("The sign-in was cancelled"))
            #expect(Self.refresh(cancelled.html) == "7; url=/kiosk/next")
            #expect(browser.cookies.isEmpty)
        }
    }

    /// Where a kiosk's sign-ins are kept: in memory, or in PostgreSQL (`PostgresStorageTests.Kiosk`), whose idle times
    /// the database reads with its own clock; the test's clock moves both.
    enum KioskSessions {
        case memory
        case postgres(StorageTestDatabase)
    }

    /// A kiosk gateway keeping its sign-ins in `sessions`, with a clock the test moves; `body` gets the browser, the
    /// file sink's path and the clock.
    static func withKioskGateway(
        _ sessions: KioskSessions,
        logger: Logger = Logger(label: "gateway-test"),
        _ body: @escaping @Sendable (TestBrowser, String, TestClock) async throws -> Void
    ) async throws {
        switch sessions {
        case .memory:
            let clock = TestClock()
            try await GatewayHarness.withGateway(logger: logger, now: { clock.instant }, configure: kiosk) { browser, _, sinkPath in
                try await body(browser, sinkPath, clock)
            }
        case .postgres(let database):
            let clock = database.clock
            let settings = PostgresStoreSettings(url: try database.url(), encryptionKeys: [.random()])
            let storage = GatewayStorageChoice { _, logger, _ in
                try PostgresStorage(settings: settings, spoolFile: nil, clock: .reading { clock.date }, logger: logger)
            }
            try await GatewayHarness.withGateway(
                logger: logger,
                now: { clock.instant },
                configure: {
                    kiosk(&$0)
                    $0.sessions.store = .postgres(settings)
                },
                storage: storage
            ) { browser, _, sinkPath in
                // Pages wait for the tables (a page is refused at once until they are prepared).
                var ready = try await browser.get("/readyz")
                for _ in 0..<120 where ready.status != 200 {
                    try await Task.sleep(for: .milliseconds(250))
                    ready = try await browser.get("/readyz")
                }
                try #require(ready.status == 200, "\(ready.html)")
                try await body(browser, sinkPath, clock)
            }
        }
    }

    @Test("an idle page starts over, an active one does not (injected clock)")
    func idleReset() async throws { try await Self.idleReset(.memory) }

    static func idleReset(_ sessions: KioskSessions) async throws {
        try await withKioskGateway(sessions) { browser, _, clock in
            _ = try await browser.openPasswordForm()
            let cookie = browser.cookies
            clock.advance(.seconds(30))
            let active = try await browser.get("/kiosk/next")
            #expect(active.forms.contains { $0.inputs.contains { $0.type == "password" } }, "still the same step")
            #expect(browser.cookies == cookie)
            clock.advance(.seconds(95))
            let reset = try await browser.get("/kiosk/next")
            #expect(reset.html.contains("Username and password"), "a new sign-in from the start")
            #expect(browser.cookies != cookie)
        }
    }

    /// The break an adversarial probe found: person A entered demo/demo and walked away, the page's refresh never
    /// reached `/kiosk/next` (tab closed, or the refresh did not fire); person B on the same browser opened `/`, saw
    /// "Welcome, Demo User", pressed Continue, and the sinks received A's success.
    @Test(
        "a sign-in left alone past kiosk.idleResetSeconds is ended on any route, refresh or not: the next person starts afresh, cannot finish it, and nothing is delivered"
    )
    func walkedAwayWithoutTheRefresh() async throws { try await Self.walkedAwayWithoutTheRefresh(.memory) }

    static func walkedAwayWithoutTheRefresh(_ sessions: KioskSessions) async throws {
        try await withKioskGateway(sessions) { browser, sinkPath, clock in
            let form = try await browser.openPasswordForm()
            let welcome = try await browser.submit(form, ["userName": "demo", "password": "demo"])
            #expect(welcome.html.contains("Welcome, Demo User"))
            let continueA = try welcome.form(button: "Continue")
            let cookieA = browser.cookies
            // A walks away; no request comes for the idle time.
            clock.advance(.seconds(91))

            // B presses A's Continue, still on the screen: refused, A's sign-in is over.
            let pressed = try await browser.submit(continueA)
            #expect(!pressed.html.contains("You are signed in"), "B finished A's sign-in")
            // B opens the start page: a fresh sign-in under a new cookie.
            let start = try await browser.get("/")
            #expect(start.html.contains("Username and password") && !start.html.contains("Welcome, Demo User"))
            #expect(browser.cookies != cookieA)
            #expect(!FileManager.default.fileExists(atPath: sinkPath), "nothing was handed over for A")

            // The waiting page's script and a post with A's cookie find nothing either.
            let other = try await TestBrowser.using(browser.baseURL) { other in
                for (name, value) in cookieA { other.setCookie(name, value) }
                return try await other.get("/step/1/status")
            }
            #expect(other.html == #"{"changed":true}"#, "A's sign-in is gone for every route")

            // B signs in: the only outcome is B's.
            let done = try await browser.signInAsDemoFrom(start)
            #expect(done.html.contains("You are signed in"))
            #expect(FileManager.default.fileExists(atPath: sinkPath))
        }
    }

    /// A `HEAD` is safe (RFC 9110 §9.2.1): one with the sign-in's cookie (a link checker, a preview) neither ends an idle
    /// sign-in nor counts as its use. Before, the idle check ran before the `HEAD` guard and ended it, and its lookup
    /// kept a sign-in alive.
    @Test("a HEAD with the sign-in's cookie neither ends an idle sign-in nor keeps one alive")
    func aHeadResetsNothing() async throws { try await Self.aHeadResetsNothing(.memory) }

    static func aHeadResetsNothing(_ sessions: KioskSessions) async throws {
        let log = LogCapture()
        try await withKioskGateway(sessions, logger: log.logger) { browser, _, clock in
            let form = try await browser.openPasswordForm()
            let welcome = try await browser.submit(form, ["userName": "demo", "password": "demo"])
            #expect(welcome.html.contains("Welcome, Demo User"))
            // A HEAD within the idle time does not count as use: 80 s + 20 s after it is past the 90 s.
            clock.advance(.seconds(80))
            let early = try await browser.head("/")
            #expect(early.status == 200)
            clock.advance(.seconds(20))
            // A HEAD past the idle time ends nothing.
            let late = try await browser.head("/")
            #expect(late.status == 200)
            #expect(!log.text.contains("kiosk: a sign-in left alone"), "a HEAD ended the sign-in: \(log.text)")
            // The next GET finds the sign-in left alone for 100 s, and ends it: the next person starts afresh.
            let start = try await browser.get("/")
            #expect(start.html.contains("Username and password") && !start.html.contains("Welcome, Demo User"), "\(start.summary)")
            #expect(log.text.contains("kiosk: a sign-in left alone"), "\(log.text)")
        }
    }

    @Test("a sign-in used within kiosk.idleResetSeconds goes on: each request counts as use")
    func activeSignInGoesOn() async throws { try await Self.activeSignInGoesOn(.memory) }

    static func activeSignInGoesOn(_ sessions: KioskSessions) async throws {
        try await withKioskGateway(sessions) { browser, sinkPath, clock in
            let form = try await browser.openPasswordForm()
            clock.advance(.seconds(80))
            let welcome = try await browser.submit(form, ["userName": "demo", "password": "demo"])
            clock.advance(.seconds(80))
            let done = try await browser.submit(try welcome.form(button: "Continue"))
            #expect(done.html.contains("You are signed in"))
            #expect(FileManager.default.fileExists(atPath: sinkPath))
        }
    }
}
