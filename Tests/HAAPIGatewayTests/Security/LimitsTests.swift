import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// B3 and B13: lifetimes, the session cap and the failed-post bounds, with an injected clock where time matters.
    @Suite("Limits: session cap, failed posts, lifetimes")
    struct LimitsTests {
        @Test("at sessions.maximumSessions a new browser gets a 503 'try again' page with Retry-After; the sign-ins under way go on")
        func sessionCapRefusesNewSignInsOnly() async throws {
            try await GatewayHarness.withGateway(configure: { $0.sessions.maximumSessions = 2 }) { first, _, _ in
                let form = try await first.openPasswordForm()
                try await TestBrowser.using(first.baseURL) { second in
                    _ = try await second.openPasswordForm()
                    try await TestBrowser.using(first.baseURL) { third in
                        let refused = try await third.get("/")
                        #expect(refused.status == 503)
                        #expect(refused.header("Retry-After") == "5")
                        #expect(refused.html.contains("Too many sign-ins at once") && refused.html.contains("Try again"))
                        #expect(third.cookies.isEmpty, "no session was made")
                    }
                    let stillThere = try await second.get("/")
                    #expect(stillThere.forms.contains { $0.inputs.contains { $0.type == "password" } })
                }
                let notice = try await first.submit(form, ["userName": "demo", "password": "demo"])
                let done = try await first.submit(try notice.form(button: "Continue"))
                #expect(done.html.contains("You are signed in"))
            }
        }

        @Test(
            "after sessions.maximumFailedPostsPerSession wrong passwords the next post gets 429; the session is kept and works once the window moves on"
        )
        func failedPostsPerSessionAreBounded() async throws {
            let clock = TestClock()
            try await GatewayHarness.withGateway(
                now: { clock.instant },
                configure: {
                    $0.sessions.maximumFailedPostsPerSession = 3
                    $0.sessions.failedPostWindowSeconds = 60
                }
            ) { browser, _, _ in
                var form = try await browser.openPasswordForm()
                for attempt in 1...3 {
                    let page = try await browser.submit(form, ["userName": "demo", "password": "wrong-\(attempt)"])
                    #expect(page.status == 200 && page.html.contains("Incorrect username or password"))
                    form = try #require(page.forms.first { $0.inputs.contains { $0.type == "password" } })
                }
                let limited = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                #expect(limited.status == 429)
                #expect(limited.html.contains("Too many attempts"))
                let wait = try #require(limited.header("Retry-After").flatMap(Int.init))
                #expect((1...60).contains(wait))
                let kept = try await browser.get("/")
                #expect(kept.forms.contains { $0.action == form.action }, "the step is kept")
                clock.advance(.seconds(61))
                let notice = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                #expect(notice.forms.contains { $0.button == "Continue" }, "the right password goes through after the window")
            }
        }

        @Test(
            "forged posts count per client address across sessions: past sessions.maximumFailedPostsPerAddress even a fresh sign-in's post gets 429"
        )
        func failedPostsPerAddressAreBounded() async throws {
            let clock = TestClock()
            try await GatewayHarness.withGateway(
                now: { clock.instant },
                configure: {
                    $0.sessions.maximumFailedPostsPerAddress = 4
                    $0.sessions.failedPostWindowSeconds = 60
                }
            ) { attacker, _, _ in
                let form = try await attacker.openPasswordForm()
                for _ in 0..<2 {
                    try await TestBrowser.using(attacker.baseURL) { browser in
                        let form = try await browser.openPasswordForm()
                        for _ in 0..<2 {
                            let forged = try await browser.submit(form, ["userName": "demo", "password": "demo", "_csrf": "forged"])
                            #expect(forged.status == 403)
                        }
                    }
                }
                let limited = try await attacker.submit(form, ["userName": "demo", "password": "demo"])
                #expect(limited.status == 429)
                clock.advance(.seconds(61))
                let notice = try await attacker.submit(form, ["userName": "demo", "password": "demo"])
                #expect(notice.forms.contains { $0.button == "Continue" })
            }
        }

        @Test("a sign-in left alone past sessions.idleTimeoutSeconds, or older than absoluteTimeoutSeconds, shows 'session expired' (injected clock)")
        func idleAndAbsoluteExpiry() async throws {
            let clock = TestClock()
            try await GatewayHarness.withGateway(
                now: { clock.instant },
                configure: {
                    $0.sessions.idleTimeoutSeconds = 60
                    $0.sessions.absoluteTimeoutSeconds = 150
                }
            ) { browser, _, _ in
                let form = try await browser.openPasswordForm()
                clock.advance(.seconds(59))
                #expect(try await browser.get("/").forms.contains { $0.action == form.action }, "used within the idle timeout")
                clock.advance(.seconds(61))
                let idle = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                #expect(idle.html.contains("Session expired"))

                let fresh = try await browser.submit(try idle.form(button: "Start again"))
                #expect(fresh.html.contains("Username and password"))
                for _ in 0..<3 {
                    clock.advance(.seconds(40))
                    #expect(try await browser.get("/").html.contains("Username and password"), "used every 40 s")
                }
                clock.advance(.seconds(40))
                let old = try await browser.get("/")
                #expect(old.html.contains("Session expired"), "160 s after it began, though used every 40 s")
            }
        }
    }
}
