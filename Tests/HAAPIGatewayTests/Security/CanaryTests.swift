import Foundation
import HAAPI
import HAAPIDemoServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension SecurityAndReliabilityTests {
    /// B9 and B11: a whole sign-in with unique secrets; none of them, nor the code or any token, ever reaches a log line,
    /// a page, a header sent to the browser or an error page.
    @Suite("Canary: no secret leaves the gateway")
    struct CanaryTests {
        /// The values of `"name": "value"` JSON members and `Name: value` headers in recorded traffic.
        private func values(named names: [String], in traffic: [String]) -> [String] {
            var found: [String] = []
            for entry in traffic {
                for name in names {
                    found += ScrapedForm.matches("\"\(name)\"\\s*:\\s*\"([^\"]+)\"", in: entry)
                    found += ScrapedForm.matches("(?im)^\(name):\\s*(?:DPoP |Bearer |Basic )?(\\S+)$", in: entry)
                }
            }
            return found
        }

        @Test(
            "password, one-time code, client secret, webhook secret, code, HAAPI token, DPoP proofs and tokens appear nowhere the browser or the logs see"
        )
        func canarySignIn() async throws {
            let unique = UUID().uuidString.lowercased()
            let password = "canary-password-\(unique)"
            let wrongPassword = "canary-wrong-password-\(unique)"
            let clientSecret = "canary-client-secret-\(unique)"
            let webhookSecret = "canary-webhook-secret-\(unique)"
            let capture = LogCapture()
            let recorder = WebhookRecorder(failFirst: 1)
            let hookRouter = Router()
            hookRouter.post("/hook") { request, _ -> HTTPResponse.Status in
                var request = request
                let body = String(buffer: try await request.collectBody(upTo: 1 << 20))
                let accepted = recorder.record(
                    timestamp: nil,
                    signature: request.headers[HTTPField.Name("X-HAAPI-Gateway-Signature")!],
                    delivery: request.headers[HTTPField.Name("X-HAAPI-Gateway-Delivery")!],
                    body: body
                )
                return accepted ? .noContent : .serviceUnavailable
            }
            var upstreamSettings = DemoServerConfiguration()
            upstreamSettings.clientSecret = clientSecret
            upstreamSettings.passwords = ["otp": password]
            let demoConfiguration = upstreamSettings
            try await Application(router: hookRouter, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { hookClient in
                let hook = URL(string: "http://127.0.0.1:\(hookClient.port!)/hook")!
                try await GatewayHarness.withProxiedGateway(
                    logger: capture.logger,
                    demoConfiguration: demoConfiguration,
                    configure: {
                        guard case .haapi(var upstream) = $0.upstream else { return }
                        upstream.clientAuthentication = .secretBasic(clientSecret)
                        $0.upstream = .haapi(upstream)
                        $0.callbacks.append(.webhook(url: hook, secret: webhookSecret))
                        $0.callbackDelivery = CallbackDeliverySettings(retryForSeconds: 60, initialBackoffSeconds: 0.05)
                    }
                ) { browser, demo, sinkPath, proxy in
                    let selector = try await browser.get("/")
                    let login = try await browser.submit(try selector.form(button: "Email one-time code"))
                    let form = try #require(login.forms.first { $0.inputs.contains { $0.type == "password" } })
                    let refused = try await browser.submit(form, ["userName": "otp", "password": wrongPassword])
                    #expect(refused.html.contains("Incorrect username or password"))
                    let retry = try #require(refused.forms.first { $0.inputs.contains { $0.type == "password" } })
                    let codePage = try await browser.submit(retry, ["userName": "otp", "password": password])
                    let codeForm = try #require(codePage.forms.first { $0.inputs.contains { $0.name == "otp" } })
                    let wrongCode = try await browser.submit(codeForm, ["otp": "000000"])
                    let code = try #require(try await DemoSideChannel.outbox(demo).first { $0["code"] is String }?["code"] as? String)
                    let retryCode = try #require(wrongCode.forms.first { $0.inputs.contains { $0.name == "otp" } })
                    let done = try await browser.submit(retryCode, ["otp": code])
                    #expect(done.html.contains("You are signed in"))
                    // The webhook refused the first attempt (an error logged); wait for the retry that succeeds.
                    for _ in 0..<400 where recorder.requests.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
                    #expect(recorder.requests.count == 2)
                    _ = try await browser.get("/")
                    _ = try await browser.post("/step/1/action/0", body: "_csrf=forged")

                    let sink = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any]
                    let token = try #require(sink?["token"] as? [String: Any])
                    var secrets = [password, wrongPassword, clientSecret, webhookSecret, code]
                    secrets += ["accessToken", "refreshToken", "idToken"].compactMap { token[$0] as? String }
                    let upstreamTraffic = proxy.traffic
                    let authorizationCodes = values(named: ["code"], in: upstreamTraffic.filter { $0.contains("oauth-authorization-response") })
                    #expect(!authorizationCodes.isEmpty, "the authorization response passed the proxy")
                    secrets += authorizationCodes
                    secrets += values(
                        named: ["access_token", "refresh_token", "id_token", "DPoP", "Session-Id", "Authorization"],
                        in: upstreamTraffic
                    )
                    secrets += recorder.requests.compactMap(\.signature)
                    let browserSees = browser.transcript.joined(separator: "\n")
                    let logs = capture.text
                    #expect(!logs.isEmpty && browserSees.contains("You are signed in"))
                    for secret in Set(secrets) where secret.count >= 6 {
                        #expect(!logs.contains(secret), "a log line contains \(secret.prefix(12))…")
                        #expect(!browserSees.contains(secret), "a page or header sent to the browser contains \(secret.prefix(12))…")
                    }
                }
            }
        }
    }
}
