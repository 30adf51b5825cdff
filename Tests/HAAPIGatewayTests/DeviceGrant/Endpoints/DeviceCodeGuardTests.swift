import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// The guards of the verification page: guessing user codes is bounded per address and from everyone together, a code
/// opens one sign-in and is entered a bounded number of times, and the forms need their double-submit token.
@Suite("Device verification page guards")
struct DeviceCodeGuardTests {
    /// The user codes' alphabet (RFC 8628 §6.1's example), for guesses that are codes.
    enum UserCodeAlphabet {
        static let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
    }

    /// Enters `code` on the verification page as a browser with its own form token.
    static func enter(_ code: String, _ person: TestBrowser, headers: [(String, String)] = []) async throws -> TestBrowser.Page {
        let entry = try await person.get("/device")
        return try await person.submit(try entry.form(button: "Continue"), ["user_code": code], headers: headers)
    }

    @Test("wrong codes from one address: past devices.maximumWrongCodesPerAddress the page is 429 with Retry-After, even for the right code")
    func wrongCodesPerAddress() async throws {
        let clock = TestClock()
        let log = LogCapture()
        try await DeviceAuthorizationTests.withDevice(
            clock: clock,
            logger: log.logger,
            configure: {
                $0.devices.maximumWrongCodesPerAddress = 3
                $0.devices.wrongCodeWindowSeconds = 60
            }
        ) { device, person, _ in
            let authorization = try await device.authorize()
            let userCode = try #require(authorization["user_code"] as? String)
            for guess in ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD"] where guess != userCode {
                let page = try await Self.enter(guess, person)
                #expect(page.status == 400)
                #expect(page.html.contains("That code is not valid or has expired"))
            }
            let refused = try await Self.enter(userCode, person)
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "60")
            #expect(refused.html.contains("Too many wrong codes were entered"))
            // Both lines name the client address, as the request lines do.
            #expect(log.text.contains(#"wrong device user code entered ["address": 127.0.0.1]"#), "\(log.text.suffix(2000))")
            #expect(log.text.contains(#"device code refused: too many wrong codes ["address": 127.0.0.1]"#))
            clock.advance(.seconds(61))
            let confirm = try await Self.enter(userCode, person)
            #expect(confirm.html.contains("Build host 3 is asking to sign in"), "the window moved on")
        }
    }

    @Test(
        "wrong codes from many addresses together are bounded too (devices.maximumWrongCodes): past it a guessing address is refused, a new one guesses once"
    )
    func wrongCodesFromEveryone() async throws {
        try await DeviceAuthorizationTests.withDevice(configure: {
            $0.devices.maximumWrongCodes = 4
            $0.devices.maximumWrongCodesPerAddress = 100
            $0.server.trustedProxies = [IPAddressRange("127.0.0.0/8")!]
        }) { _, person, _ in
            for address in 1...4 {
                let page = try await Self.enter("BBBB-BBBB", person, headers: [("X-Forwarded-For", "198.51.100.\(address)")])
                #expect(page.status == 400)
            }
            let again = try await Self.enter("CCCC-CCCC", person, headers: [("X-Forwarded-For", "198.51.100.1")])
            #expect(again.status == 429, "an address that guessed wrong is held back once everyone's bound is reached")
            let newcomer = try await Self.enter("BBBB-BBBB", person, headers: [("X-Forwarded-For", "198.51.100.99")])
            #expect(newcomer.status == 400, "one guess for an address that has not guessed")
            let refused = try await Self.enter("CCCC-CCCC", person, headers: [("X-Forwarded-For", "198.51.100.99")])
            #expect(refused.status == 429)
        }
    }

    @Test("100 wrong codes from ten addresses do not stop a person with the right code at another address")
    func guessersDoNotLockOutThePerson() async throws {
        try await DeviceAuthorizationTests.withDevice(configure: {
            $0.server.trustedProxies = [IPAddressRange("127.0.0.0/8")!]
        }) { device, person, _ in
            let authorization = try await device.authorize()
            let userCode = try #require(authorization["user_code"] as? String)
            for address in 1...10 {
                for guess in 0..<10 {
                    let code = String(repeating: Character(String(UserCodeAlphabet.letters[(address + guess) % 20])), count: 8)
                    guard code != userCode.replacingOccurrences(of: "-", with: "") else { continue }
                    _ = try await Self.enter(code, person, headers: [("X-Forwarded-For", "203.0.113.\(address)")])
                }
            }
            let blocked = try await Self.enter("BBBB-BBBB", person, headers: [("X-Forwarded-For", "203.0.113.1")])
            #expect(blocked.status == 429, "the guessers are held back")
            let confirm = try await Self.enter(userCode, person, headers: [("X-Forwarded-For", "192.0.2.7")])
            #expect(confirm.status == 200)
            #expect(confirm.html.contains("Build host 3 is asking to sign in"))
        }
    }

    @Test("a code opens one sign-in: a second browser confirming the same code is refused, and confirming guesses counts as wrong codes")
    func singleUseCode() async throws {
        try await DeviceAuthorizationTests.withDevice(configure: { $0.devices.maximumWrongCodesPerAddress = 2 }) { device, person, _ in
            let authorization = try await device.authorize()
            let complete = try #require(authorization["verification_uri_complete"] as? String)
            let first = try await person.enterDeviceCode(completeURI: complete)
            try await TestBrowser.using(person.baseURL) { other in
                let second = try await other.enterDeviceCode(completeURI: complete)
                _ = try await person.submit(try first.form(button: "It matches, continue"))
                let late = try await other.submit(try second.form(button: "It matches, continue"))
                #expect(late.status == 400)
                #expect(late.html.contains("That code has already been used"))
                // After a sign-in started, the code is no longer offered at all.
                let entered = try await other.enterDeviceCode(completeURI: complete)
                #expect(entered.html.contains("That code has already been used"))
                // Posting guesses straight to the confirmation counts against the bound like entering them (the code in
                // use above was no guess).
                for guess in ["BBBB-BBBB", "CCCC-CCCC"] {
                    #expect(try await other.submit(try second.form(button: "It matches, continue"), ["user_code": guess]).status == 400)
                }
                let bounded = try await other.submit(try second.form(button: "It matches, continue"), ["user_code": "DDDD-DDDD"])
                #expect(bounded.status == 429)
            }
        }
    }

    @Test(
        "a link with the code's dash written as + (`?user_code=WDJB+MJHT`, a form's space) is prefilled as the code and confirms it, counting no wrong code"
    )
    func plusInTheLinkIsASpace() async throws {
        let metrics = GatewayMetrics()
        try await DeviceAuthorizationTests.withDevice(metrics: metrics) { device, person, _ in
            let userCode = try #require(try await device.authorize()["user_code"] as? String)
            let entry = try await person.get("/device?user_code=" + userCode.replacingOccurrences(of: "-", with: "+"))
            let confirm = try await person.submit(try entry.form(button: "Continue"))
            #expect(confirm.html.contains("Build host 3 is asking to sign in"), "\(confirm.html.prefix(600))")
            #expect(metrics.exposition().contains(#"haapi_gateway_device_grant_total{event="wrong_code"} 0"#))
        }
    }

    @Test("a confirmation sent twice (a double click): the second finds the code in use and counts no wrong code")
    func repeatedConfirmationIsNoGuess() async throws {
        let metrics = GatewayMetrics()
        try await DeviceAuthorizationTests.withDevice(metrics: metrics) { device, person, _ in
            let complete = try #require(try await device.authorize()["verification_uri_complete"] as? String)
            let confirm = try await person.enterDeviceCode(completeURI: complete)
            let form = try confirm.form(button: "It matches, continue")
            #expect(try await person.submit(form).html.contains("Username and password"))
            let again = try await person.submit(form)
            #expect(again.html.contains("That code has already been used"))
            #expect(metrics.exposition().contains(#"haapi_gateway_device_grant_total{event="wrong_code"} 0"#), "a repeated confirmation is no guess")
        }
    }

    @Test(
        "a public client's waiting codes are bounded per address (devices.maximumPendingPerAddress): past it that address gets 429, another address and a confidential client still get codes"
    )
    func publicClientsWaitingCodesPerAddress() async throws {
        try await DeviceAuthorizationTests.withDevice(configure: {
            $0.devices.maximumPendingPerAddress = 2
            $0.server.trustedProxies = [IPAddressRange("127.0.0.0/8")!]
        }) { device, _, _ in
            let publicDevice = TestDevice(browser: device.browser, client: TestDevice.publicClient)
            for _ in 0..<2 { #expect(try await publicDevice.post("/oauth/device_authorization", []).status == 200) }
            let refused = try await publicDevice.post("/oauth/device_authorization", [])
            #expect(refused.status == 429)
            #expect(refused.json["error"] as? String == "temporarily_unavailable")
            #expect(refused.page.header("Retry-After") == "60")
            let elsewhere = try await publicDevice.post("/oauth/device_authorization", [], headers: [("X-Forwarded-For", "198.51.100.9")])
            #expect(elsewhere.status == 200, "another address has its own share")
            #expect(try await device.post("/oauth/device_authorization", []).status == 200, "a confidential client is not bounded so")
        }
    }

    @Test("a code can be entered devices.maximumEntriesPerCode times, then it is refused")
    func entriesPerCode() async throws {
        try await DeviceAuthorizationTests.withDevice(configure: { $0.devices.maximumEntriesPerCode = 2 }) { device, person, _ in
            let complete = try #require(try await device.authorize()["verification_uri_complete"] as? String)
            for _ in 1...2 {
                #expect(try await person.enterDeviceCode(completeURI: complete).html.contains("Build host 3 is asking to sign in"))
            }
            #expect(try await person.enterDeviceCode(completeURI: complete).html.contains("That code has already been used"))
        }
    }

    @Test(
        "a post straight to /device/confirm or /device/deny with a fresh form token counts against the code's entries too: past the limit it starts nothing and refuses nothing"
    )
    func directConfirmationsCountAsEntries() async throws {
        try await DeviceAuthorizationTests.withDevice(configure: { $0.devices.maximumEntriesPerCode = 2 }) { device, person, _ in
            let authorization = try await device.authorize()
            let userCode = try #require(authorization["user_code"] as? String)
            let complete = try #require(authorization["verification_uri_complete"] as? String)
            let confirm = try await person.enterDeviceCode(completeURI: complete)
            #expect(confirm.html.contains("Build host 3 is asking to sign in"), "entry 1")
            #expect(try await person.enterDeviceCode(completeURI: complete).html.contains("Build host 3 is asking to sign in"), "entry 2")
            // A third browser of the attacker's, with a form token of its own, posts the code straight to the decisions.
            try await TestBrowser.using(person.baseURL) { other in
                var form = try await other.get("/device").form(button: "Continue")
                form.fields["user_code"] = userCode
                let confirmed = try await other.post("/device/confirm", body: form.urlEncoded)
                #expect(confirmed.status == 400, "no sign-in started: \(confirmed.status)")
                #expect(!confirmed.html.contains("Username and password"))
                let refused = try await other.post("/device/deny", body: form.urlEncoded)
                #expect(refused.status == 400, "nothing refused: \(refused.status)")
            }
            #expect(try await device.poll(try #require(authorization["device_code"] as? String)).json["error"] as? String == "authorization_pending")
        }
    }

    @Test("the code forms need the double-submit token of the browser's cookie, and posts from another site are refused")
    func doubleSubmitToken() async throws {
        try await DeviceAuthorizationTests.withDevice { device, person, _ in
            let userCode = try #require(try await device.authorize()["user_code"] as? String)
            let entry = try await person.get("/device")
            let form = try entry.form(button: "Continue")
            let forged = try await person.submit(form, ["user_code": userCode, "_csrf": "forged-token-forged-token-forged-token-abc"])
            #expect(forged.status == 403)
            try await TestBrowser.using(person.baseURL) { attacker in
                // A page elsewhere cannot read the cookie: it posts without it.
                let blind = try await attacker.post("/device/confirm", body: "_csrf=\(form.fields["_csrf"] ?? "")&user_code=\(userCode)")
                #expect(blind.status == 403)
            }
            try await TestBrowser.using(person.baseURL) { planted in
                // A cookie of the attacker's choosing (set from a sibling host, say) and the same value in the form.
                let chosen = String(repeating: "a", count: 43)
                planted.setCookie("haapi-gateway-device", chosen)
                let posted = try await planted.post("/device", body: "_csrf=\(chosen)&user_code=\(userCode)")
                #expect(posted.status == 403, "only a token of the gateway's own making passes")
                // And the page does not adopt the planted value as its token.
                #expect(try await planted.get("/device").form(button: "Continue").fields["_csrf"] != chosen)
            }
            let crossSite = try await person.submit(form, ["user_code": userCode], headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(crossSite.status == 403)
            #expect(try await person.submit(form, ["user_code": userCode]).html.contains("Build host 3 is asking to sign in"))
        }
    }
}
