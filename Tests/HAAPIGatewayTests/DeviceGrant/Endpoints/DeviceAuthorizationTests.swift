import Foundation
import HAAPIGateway
import Logging
import Testing

@testable import GatewayTestSupport

/// The device authorization grant (RFC 8628) end to end in-process: a device asks for a code, a person enters it on the
/// gateway, compares it, signs in through the HAAPI pages, and the device's poll collects the tokens once.
@Suite("Device authorization grant (RFC 8628)")
struct DeviceAuthorizationTests {
    static func withDevice(
        clock: TestClock? = nil,
        metrics: GatewayMetrics = GatewayMetrics(),
        logger: Logger = Logger(label: "gateway-test"),
        reloader: GatewayReloader = GatewayReloader(),
        configure: @escaping (inout GatewayConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestDevice, TestBrowser, String) async throws -> Void
    ) async throws {
        try await GatewayHarness.withGateway(
            logger: logger,
            now: { clock?.instant ?? .now },
            metrics: metrics,
            reloader: reloader,
            configure: {
                TestDevice.configure(&$0)
                configure(&$0)
            }
        ) { person, _, sinkPath in
            try await TestBrowser.using(person.baseURL) { deviceBrowser in
                try await body(TestDevice(browser: deviceBrowser), person, sinkPath)
            }
        }
    }

    @Test("RFC 8414 metadata names the device authorization, token and revocation endpoints and the grants")
    func metadata() async throws {
        try await Self.withDevice { device, _, _ in
            let page = try await device.browser.get("/.well-known/oauth-authorization-server")
            #expect(page.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(page.html.utf8)) as? [String: Any])
            let issuer = try #require(json["issuer"] as? String)
            #expect(issuer == device.browser.baseURL)
            #expect(json["device_authorization_endpoint"] as? String == issuer + "/oauth/device_authorization")
            #expect(json["token_endpoint"] as? String == issuer + "/oauth/token")
            #expect(json["revocation_endpoint"] as? String == issuer + "/oauth/revoke")
            #expect(json["grant_types_supported"] as? [String] == [TestDevice.deviceCodeGrant, "refresh_token"])
        }
    }

    @Test("a device signs in: code and device name shown, the HAAPI pages, 'go back to your device'; the poll gets the tokens exactly once")
    func deviceSignsIn() async throws {
        try await Self.withDevice { device, person, sinkPath in
            let authorization = try await device.authorize(scope: "openid profile")
            let deviceCode = try #require(authorization["device_code"] as? String)
            let userCode = try #require(authorization["user_code"] as? String)
            // RFC 8628 §3.2 and §6.1: a 256-bit device code, a short code of the unambiguous alphabet.
            #expect(deviceCode.count >= 43)
            #expect(userCode.wholeMatch(of: /[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}/) != nil, "\(userCode)")
            #expect(authorization["verification_uri"] as? String == device.browser.baseURL + "/device")
            #expect(authorization["verification_uri_complete"] as? String == device.browser.baseURL + "/device?user_code=" + userCode)
            #expect(authorization["expires_in"] as? Int == 600)
            #expect(authorization["interval"] as? Int == 1)

            let pending = try await device.poll(deviceCode)
            #expect(pending.status == 400)
            #expect(pending.json["error"] as? String == "authorization_pending")
            #expect(pending.page.header("Cache-Control") == "no-store")

            let confirm = try await person.enterDeviceCode(completeURI: try #require(authorization["verification_uri_complete"] as? String))
            #expect(confirm.html.contains("Build host 3 is asking to sign in"))
            #expect(confirm.html.contains(userCode))
            let done = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
            #expect(done.html.contains("You are signed in. You can go back to Build host 3."), "\(done.html)")

            let tokens = try await device.poll(deviceCode)
            #expect(tokens.status == 200, "\(tokens.page.html)")
            // The strict demo, like Curity with token-bound codes, binds the tokens to the flow's DPoP key: the key goes along.
            #expect(tokens.json["token_type"] as? String == "DPoP")
            #expect((tokens.json["dpop_private_key"] as? String)?.hasPrefix("-----BEGIN PRIVATE KEY-----") == true)
            #expect((tokens.json["access_token"] as? String)?.isEmpty == false)
            #expect((tokens.json["id_token"] as? String)?.isEmpty == false)
            #expect((tokens.json["expires_in"] as? Int ?? 0) > 0)
            #expect(tokens.json["scope"] as? String == "openid profile", "the device asked for fewer scopes than the gateway's")
            #expect((tokens.json["refresh_token"] as? String)?.hasPrefix("hgr1.") == true, "the upstream's refresh token never leaves in the clear")
            #expect(tokens.page.header("Cache-Control") == "no-store")
            #expect(tokens.page.header("Pragma") == "no-cache")
            #expect(!done.html.contains(tokens.json["access_token"] as? String ?? "-"))

            // RFC 8628 §3.5 / RFC 6749 §5.2: the device code is spent.
            let again = try await device.pollAfterHandOver(deviceCode)
            #expect(again.status == 400)
            #expect(again.json["error"] as? String == "invalid_grant")

            // The sinks learn who signed in for which device, but not the device's tokens.
            let outcome = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any])
            #expect(outcome["outcome"] as? String == "success")
            #expect(outcome["token"] == nil)
            let starter = try #require(outcome["starter"] as? [String: Any])
            #expect(starter["kind"] as? String == "device")
            #expect(starter["client"] as? String == "build-host")
            #expect((starter["reference"] as? String)?.isEmpty == false)
        }
    }

    @Test("the device's refresh and revocation go through the gateway; a refresh token of one device client is refused for another")
    func refreshAndRevokeThroughTheGateway() async throws {
        let metrics = GatewayMetrics()
        try await Self.withDevice(metrics: metrics) { device, person, _ in
            let tokens = try await Self.signedInDevice(device, person)
            let refreshToken = try #require(tokens["refresh_token"] as? String)

            // Another client presenting it first is refused by the gateway itself, so the token stays good for its device.
            var other = device
            other.client = TestDevice.publicClient
            let stolen = try await other.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
            #expect(stolen.status == 400)
            #expect(stolen.json["error"] as? String == "invalid_grant")

            let refreshed = try await device.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
            #expect(refreshed.status == 200, "\(refreshed.page.html)")
            #expect((refreshed.json["access_token"] as? String).map { $0 != tokens["access_token"] as? String } == true)
            #expect(
                refreshed.json["dpop_private_key"] as? String == tokens["dpop_private_key"] as? String,
                "the gateway proved the refresh with the sealed key"
            )

            let current = (refreshed.json["refresh_token"] as? String) ?? refreshToken
            let revoked = try await device.post("/oauth/revoke", [("token", current), ("token_type_hint", "refresh_token")])
            #expect(revoked.status == 200)
            let afterRevocation = try await device.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", current)])
            #expect(afterRevocation.status == 400)
            #expect(afterRevocation.json["error"] as? String == "invalid_grant", "the upstream no longer knows the revoked refresh token")
            let exposition = metrics.exposition()
            for event in ["authorized", "tokens_issued", "refreshed", "revoked"] {
                #expect(exposition.contains(#"haapi_gateway_device_grant_total{event="\#(event)"} 1"#), "\(event)")
            }
        }
    }

    @Test(
        "bound tokens and a device client not configured to receive their key: the poll is refused with unauthorized_client naming the setting, the log says what to change, no key leaves"
    )
    func boundTokensWithoutTheKeySettingAreRefused() async throws {
        let metrics = GatewayMetrics()
        let log = LogCapture()
        try await GatewayHarness.withGateway(logger: log.logger, metrics: metrics, configure: TestDevice.configure) { person, _, _ in
            try await TestBrowser.using(person.baseURL) { deviceBrowser in
                let device = TestDevice(browser: deviceBrowser, client: TestDevice.publicClient)
                let authorization = try await device.authorize()
                let confirm = try await person.enterDeviceCode(completeURI: try #require(authorization["verification_uri_complete"] as? String))
                _ = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
                let answer = try await device.poll(try #require(authorization["device_code"] as? String))
                #expect(answer.status == 400)
                #expect(answer.json["error"] as? String == "unauthorized_client")
                #expect((answer.json["error_description"] as? String)?.contains("receivesDPoPKey") == true, "\(answer.page.html)")
                #expect(!answer.page.html.contains("PRIVATE KEY") && answer.json["access_token"] == nil)
                #expect(log.text.contains("set receivesDPoPKey: true on this client in devices.clients"), "\(log.text)")
                #expect(metrics.exposition().contains(#"haapi_gateway_device_grant_total{event="bound_tokens_refused"} 1"#))
                #expect(metrics.exposition().contains(#"haapi_gateway_device_grant_total{event="tokens_issued"} 0"#))
                // The tokens were taken out: the code is spent.
                #expect(try await device.poll(try #require(authorization["device_code"] as? String)).json["error"] as? String == "invalid_grant")
            }
        }
    }

    @Test(
        "revocation is confined to the caller's own tokens (RFC 7009 §2.1): another device client's access token, or a browser sign-in's, gets 200 and no upstream call; a device's own access token is revoked upstream"
    )
    func revocationIsConfinedToTheCallersTokens() async throws {
        try await GatewayHarness.withProxiedGateway(configure: TestDevice.configure) { person, _, sinkPath, proxy in
            try await TestBrowser.using(person.baseURL) { deviceBrowser in
                let owner = TestDevice(browser: deviceBrowser)
                let tokens = try await Self.signedInDevice(owner, person)
                let accessToken = try #require(tokens["access_token"] as? String)
                let revocations = { proxy.traffic.filter { $0.hasPrefix("POST ") && $0.contains("revo") }.count }
                let before = revocations()

                // The public client, with no secret at all, names the other device's access token.
                let intruder = TestDevice(browser: deviceBrowser, client: TestDevice.publicClient)
                let refused = try await intruder.post("/oauth/revoke", [("token", accessToken), ("token_type_hint", "access_token")])
                #expect(refused.status == 200, "RFC 7009 §2.2: an invalid token is no error")
                // A browser sign-in's access token, which the gateway handed to its sinks, never to a device.
                try await TestBrowser.using(person.baseURL) { browser in _ = try await browser.signInAsDemo() }
                let outcome = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any])
                let browsersToken = try #require((outcome["token"] as? [String: Any])?["accessToken"] as? String)
                #expect(try await intruder.post("/oauth/revoke", [("token", browsersToken)]).status == 200)
                #expect(try await owner.post("/oauth/revoke", [("token", browsersToken)]).status == 200)
                #expect(revocations() == before, "no upstream call for tokens not handed to the caller")

                // The owner revokes its own: the upstream is asked.
                #expect(try await owner.post("/oauth/revoke", [("token", accessToken), ("token_type_hint", "access_token")]).status == 200)
                #expect(revocations() == before + 1)
            }
        }
    }

    /// Signs a device in as demo and returns its token response.
    static func signedInDevice(_ device: TestDevice, _ person: TestBrowser) async throws -> [String: Any] {
        let authorization = try await device.authorize()
        let confirm = try await person.enterDeviceCode(completeURI: try #require(authorization["verification_uri_complete"] as? String))
        _ = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
        let answer = try await device.poll(try #require(authorization["device_code"] as? String))
        guard answer.status == 200 else { throw TestBrowser.BrowserError("poll: \(answer.page.html)") }
        return answer.json
    }
}
