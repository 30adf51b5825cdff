import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension SecurityAndReliabilityTests {
    /// Every 429 page a person can meet (wrong device codes, new sign-ins per address, failed posts) says when to try
    /// again, in words, and the wait it names is the one its `Retry-After` header sends (issue #38).
    @Suite("A 429 page says when to try again")
    struct RetryWaitPageTests {
        /// The sentence a page whose `Retry-After` is `seconds` should end with, worded here independently of the gateway.
        static func sentence(_ seconds: Int, language: String) -> String {
            let names =
                language == "sv"
                ? [("timme", "timmar"), ("minut", "minuter"), ("sekund", "sekunder")]
                : [("hour", "hours"), ("minute", "minutes"), ("second", "seconds")]
            let counts = [seconds / 3600, seconds % 3600 / 60, seconds % 60]
            let parts = zip(counts, names).filter { $0.0 > 0 }.map { count, name in "\(count) \(count == 1 ? name.0 : name.1)" }
            let words = parts.count > 1 ? parts.dropLast().joined(separator: ", ") + (language == "sv" ? " och " : " and ") + parts.last! : parts[0]
            return language == "sv" ? "Du kan försöka igen om \(words)." : "You can try again in \(words)."
        }

        /// Checks that `page` is a 429 whose `Retry-After` is `seconds` and whose text names that wait in `language`.
        static func expectWait(_ page: TestBrowser.Page, seconds: Int, language: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(page.status == 429, sourceLocation: sourceLocation)
            #expect(page.header("Retry-After") == String(seconds), sourceLocation: sourceLocation)
            let header = Int(page.header("Retry-After") ?? "") ?? -1
            #expect(page.html.contains(sentence(header, language: language)), "\(page.html)", sourceLocation: sourceLocation)
        }

        @Test(
            "the wait in words: every unit that is not zero, largest first, in English and Swedish",
            arguments: [1, 2, 59, 60, 61, 119, 250, 3600, 3601, 3660, 3700, 7325, 86_400]
        )
        func waitInWords(seconds: Int) throws {
            let messages = try TemplateLibrary(settings: TemplateSettings(directory: GatewayHarness.templatesDirectory)).messages
            for language in ["en", "sv"] {
                #expect(messages.retryIn(seconds: seconds, language: language) == Self.sentence(seconds, language: language))
            }
        }

        @Test("wrong device codes: the 429 page says when to try again, the wait of its Retry-After, in English and in Swedish")
        func wrongDeviceCodes() async throws {
            let clock = TestClock()
            try await DeviceAuthorizationTests.withDevice(
                clock: clock,
                configure: {
                    $0.devices.maximumWrongCodesPerAddress = 2
                    $0.devices.wrongCodeWindowSeconds = 300
                }
            ) { device, person, _ in
                let userCode = try #require(try await device.authorize()["user_code"] as? String)
                for guess in ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD"].filter({ $0 != userCode }).prefix(2) {
                    #expect(try await DeviceCodeGuardTests.enter(guess, person).status == 400)
                }
                clock.advance(.seconds(50))
                Self.expectWait(try await DeviceCodeGuardTests.enter(userCode, person), seconds: 250, language: "en")
                let swedish = try await DeviceCodeGuardTests.enter(userCode, person, headers: [("Accept-Language", "sv")])
                Self.expectWait(swedish, seconds: 250, language: "sv")
                #expect(swedish.html.contains("4 minuter och 10 sekunder"))
            }
        }

        @Test("new sign-ins per address: the 429 page says when to try again, the wait of its Retry-After, in English and in Swedish")
        func newSignInsPerAddress() async throws {
            let clock = TestClock()
            try await GatewayHarness.withGateway(
                now: { clock.instant },
                configure: {
                    $0.sessions.maximumNewSessionsPerAddress = 2
                    $0.sessions.newSessionWindowSeconds = 3720
                }
            ) { browser, _, _ in
                for _ in 1...2 {
                    #expect(try await NewSignInBudgetTests.newBrowserOpens(browser.baseURL).status == 200)
                }
                clock.advance(.seconds(20))
                Self.expectWait(try await NewSignInBudgetTests.newBrowserOpens(browser.baseURL), seconds: 3700, language: "en")
                let swedish = try await TestBrowser.using(browser.baseURL) { try await $0.get("/", headers: [("Accept-Language", "sv")]) }
                Self.expectWait(swedish, seconds: 3700, language: "sv")
                #expect(swedish.html.contains("1 timme, 1 minut och 40 sekunder"))
            }
        }

        @Test("failed posts: the 429 page says when to try again, the wait of its Retry-After, in English and in Swedish")
        func failedPosts() async throws {
            let clock = TestClock()
            try await GatewayHarness.withGateway(
                now: { clock.instant },
                configure: {
                    $0.sessions.maximumFailedPostsPerSession = 2
                    $0.sessions.failedPostWindowSeconds = 120
                }
            ) { browser, _, _ in
                var form = try await browser.openPasswordForm()
                for attempt in 1...2 {
                    let page = try await browser.submit(form, ["userName": "demo", "password": "wrong-\(attempt)"])
                    form = try #require(page.forms.first { $0.inputs.contains { $0.type == "password" } })
                }
                clock.advance(.seconds(59))
                Self.expectWait(try await browser.submit(form, ["userName": "demo", "password": "demo"]), seconds: 61, language: "en")
                let swedish = try await browser.submit(form, ["userName": "demo", "password": "demo"], headers: [("Accept-Language", "sv")])
                Self.expectWait(swedish, seconds: 61, language: "sv")
                #expect(swedish.html.contains("Du kan försöka igen om 1 minut och 1 sekund."))
            }
        }
    }
}
