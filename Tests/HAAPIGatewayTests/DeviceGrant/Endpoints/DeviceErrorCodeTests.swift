import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// Every error a device can be told (RFC 8628 §3.5, RFC 6749 §5.2), each from the situation that causes it.
@Suite("Device authorization errors")
struct DeviceErrorCodeTests {
    @Test("slow_down: a poll before the interval has passed; each one adds 5 s to the interval, and a poll after the grown interval is pending again")
    func slowDown() async throws {
        let clock = TestClock()
        try await DeviceAuthorizationTests.withDevice(clock: clock) { device, _, _ in
            let deviceCode = try #require(try await device.authorize()["device_code"] as? String)
            #expect(try await device.poll(deviceCode).json["error"] as? String == "authorization_pending")
            let tooSoon = try await device.poll(deviceCode)
            #expect(tooSoon.status == 400)
            #expect(tooSoon.json["error"] as? String == "slow_down")
            clock.advance(.seconds(2))
            #expect(try await device.poll(deviceCode).json["error"] as? String == "slow_down", "2 s is less than the grown interval of 6 s")
            // Every slow_down adds 5 s for all later polls (RFC 8628 §3.5): 11 s now.
            clock.advance(.seconds(10))
            #expect(try await device.poll(deviceCode).json["error"] as? String == "slow_down")
            clock.advance(.seconds(17))
            #expect(try await device.poll(deviceCode).json["error"] as? String == "authorization_pending")
        }
    }

    @Test("access_denied: the person refuses the device, or cancels the sign-in")
    func accessDenied() async throws {
        try await DeviceAuthorizationTests.withDevice { device, person, sinkPath in
            let refused = try await device.authorize()
            let confirm = try await person.enterDeviceCode(completeURI: try #require(refused["verification_uri_complete"] as? String))
            let page = try await person.submit(try confirm.form(button: "It does not match, refuse"))
            #expect(page.html.contains("The device was refused"))
            let answer = try await device.poll(try #require(refused["device_code"] as? String))
            #expect(answer.status == 400)
            #expect(answer.json["error"] as? String == "access_denied")

            let cancelled = try await device.authorize()
            let second = try await person.enterDeviceCode(completeURI: try #require(cancelled["verification_uri_complete"] as? String))
            let selector = try await person.submit(try second.form(button: "It matches, continue"))
            let confirmCancel = try await person.submit(try selector.form(button: "Cancel sign-in"))
            _ = try await person.submit(try confirmCancel.form(button: "Yes, cancel sign-in"))
            #expect(try await device.poll(try #require(cancelled["device_code"] as? String)).json["error"] as? String == "access_denied")
            let outcome = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any])
            #expect(outcome["outcome"] as? String == "cancelled")
            #expect((outcome["starter"] as? [String: Any])?["client"] as? String == "build-host")
        }
    }

    @Test("expired_token: no sign-in before expires_in; the code then no longer opens a sign-in either")
    func expiredToken() async throws {
        let clock = TestClock()
        try await DeviceAuthorizationTests.withDevice(clock: clock) { device, person, _ in
            let authorization = try await device.authorize()
            clock.advance(.seconds(601))
            let answer = try await device.poll(try #require(authorization["device_code"] as? String))
            #expect(answer.status == 400)
            #expect(answer.json["error"] as? String == "expired_token")
            let entry = try await person.enterDeviceCode(completeURI: try #require(authorization["verification_uri_complete"] as? String))
            #expect(entry.status == 400)
            #expect(entry.html.contains("That code is not valid or has expired"))
        }
    }

    @Test("expired_token after expires_in even when the person signed in before it: the tokens waiting for the poll are not handed over")
    func tokensNeverOutliveTheCode() async throws {
        let clock = TestClock()
        try await DeviceAuthorizationTests.withDevice(clock: clock) { device, person, _ in
            let authorization = try await device.authorize()
            let confirm = try await person.enterDeviceCode(completeURI: try #require(authorization["verification_uri_complete"] as? String))
            let done = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
            #expect(done.html.contains("You can go back to Build host 3"), "approved before expires_in")
            clock.advance(.seconds(601))
            let answer = try await device.poll(try #require(authorization["device_code"] as? String))
            #expect(answer.status == 400)
            #expect(answer.json["error"] as? String == "expired_token", "\(answer.page.html)")
            #expect(answer.json["access_token"] == nil)
        }
    }

    @Test("invalid_grant: an unknown device code, and one issued to another client")
    func invalidGrant() async throws {
        try await DeviceAuthorizationTests.withDevice { device, _, _ in
            #expect(try await device.poll("not-a-device-code").json["error"] as? String == "invalid_grant")
            let deviceCode = try #require(try await device.authorize()["device_code"] as? String)
            var other = device
            other.client = TestDevice.publicClient
            let answer = try await other.poll(deviceCode)
            #expect(answer.status == 400)
            #expect(answer.json["error"] as? String == "invalid_grant")
        }
    }

    @Test(
        "invalid_client: a wrong secret, an unknown client, a public client sending a secret, no client at all: one and the same answer (401, WWW-Authenticate, fixed text), so no client id can be told to exist"
    )
    func invalidClient() async throws {
        try await DeviceAuthorizationTests.withDevice { device, _, _ in
            let wrong = try await device.post("/oauth/device_authorization", [], headers: device.authentication(secret: "wrong-secret-wrong-secret"))
            var unknown = device
            unknown.client = DeviceClient(id: "nobody", name: "Nobody", secret: nil)
            let unknownAnswer = try await unknown.post("/oauth/device_authorization", [])
            let unknownWithSecret = try await device.post(
                "/oauth/device_authorization",
                [],
                headers: [
                    ("Authorization", "Basic " + Data("nobody:anything-at-all".utf8).base64EncodedString())
                ]
            )
            var publicWithSecret = device
            publicWithSecret.client = TestDevice.publicClient
            let publicAnswer = try await publicWithSecret.post(
                "/oauth/token",
                [("grant_type", TestDevice.deviceCodeGrant), ("device_code", "x")],
                headers: [
                    ("Authorization", "Basic " + Data("public-cli:anything-at-all".utf8).base64EncodedString())
                ]
            )
            let anonymous = try await device.browser.post("/oauth/token", body: "grant_type=\(TestDevice.deviceCodeGrant)&device_code=x")
            for answer in [wrong, unknownAnswer, unknownWithSecret, publicAnswer] {
                #expect(answer.status == 401)
                #expect(answer.json["error"] as? String == "invalid_client")
                #expect(answer.json["error_description"] as? String == "client authentication failed")
                #expect(answer.page.header("WWW-Authenticate") == #"Basic realm="haapi-gateway""#)
            }
            #expect(anonymous.status == 401)
            #expect(anonymous.html == wrong.page.html, "no client at all is answered alike")
        }
    }

    @Test(
        "a browser post from another site (Sec-Fetch-Site cross-site, or a foreign Origin) to any OAuth endpoint is refused before anything is read; a device's post passes"
    )
    func crossSiteBrowserPostsAreRefused() async throws {
        try await DeviceAuthorizationTests.withDevice { device, _, _ in
            for path in ["/oauth/device_authorization", "/oauth/token", "/oauth/revoke"] {
                for header in [("Sec-Fetch-Site", "cross-site"), ("Origin", "https://evil.example")] {
                    let answer = try await device.post(
                        path,
                        [("grant_type", TestDevice.deviceCodeGrant), ("token", "x")],
                        headers: device.authentication() + [header]
                    )
                    #expect(answer.status == 403, "\(path) \(header)")
                    #expect(answer.json["error"] as? String == "invalid_request")
                }
            }
            #expect(try await device.post("/oauth/device_authorization", []).status == 200)
        }
    }

    @Test("unsupported_grant_type, invalid_request (a missing or repeated parameter) and invalid_scope")
    func malformedRequests() async throws {
        try await DeviceAuthorizationTests.withDevice { device, _, _ in
            #expect(
                try await device.post("/oauth/token", [("grant_type", "authorization_code"), ("code", "x")]).json["error"] as? String
                    == "unsupported_grant_type"
            )
            #expect(try await device.post("/oauth/token", [("grant_type", TestDevice.deviceCodeGrant)]).json["error"] as? String == "invalid_request")
            let repeated = try await device.post(
                "/oauth/token",
                [("grant_type", TestDevice.deviceCodeGrant), ("device_code", "a"), ("device_code", "b")]
            )
            #expect(repeated.json["error"] as? String == "invalid_request")
            // A name of the client's choosing is never echoed (RFC 6749 §5.2 limits the description's characters).
            let named = try await device.post(
                "/oauth/token",
                [("grant_type", TestDevice.deviceCodeGrant), ("device_code", "a"), ("<b>x\u{1}", "1"), ("<b>x\u{1}", "2")]
            )
            #expect(named.json["error_description"] as? String == "a parameter is given more than once")
            #expect(!named.page.html.contains("<b>"))
            let scope = try await device.post("/oauth/device_authorization", [("scope", "openid admin")])
            #expect(scope.status == 400)
            #expect(scope.json["error"] as? String == "invalid_scope")
        }
    }
}
