import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// Requests a test webhook receiver saw.
final class WebhookRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [(timestamp: String?, signature: String?, delivery: String?, body: String)] = []
    private var failuresLeft: Int

    init(failFirst: Int) { failuresLeft = failFirst }

    var requests: [(timestamp: String?, signature: String?, delivery: String?, body: String)] { lock.withLock { received } }

    /// Records a request; answers 500 for the first `failFirst` ones.
    func record(timestamp: String?, signature: String?, delivery: String?, body: String) -> Bool {
        lock.withLock {
            received.append((timestamp, signature, delivery, body))
            if failuresLeft > 0 {
                failuresLeft -= 1
                return false
            }
            return true
        }
    }
}

@Suite("Webhook callback sink")
struct WebhookSinkTests {
    @Test("the token model is POSTed with a verifiable HMAC signature over 'timestamp.body', retried after a 5xx with the same delivery id")
    func webhookSignedAndRetried() async throws {
        let recorder = WebhookRecorder(failFirst: 1)
        let router = Router()
        router.post("/hook") { request, _ -> HTTPResponse.Status in
            var request = request
            let body = String(buffer: try await request.collectBody(upTo: 1 << 20))
            let accepted = recorder.record(
                timestamp: request.headers[HTTPField.Name("X-HAAPI-Gateway-Timestamp")!],
                signature: request.headers[HTTPField.Name("X-HAAPI-Gateway-Signature")!],
                delivery: request.headers[HTTPField.Name("X-HAAPI-Gateway-Delivery")!],
                body: body
            )
            return accepted ? .noContent : .internalServerError
        }
        let receiver = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let secret = "webhook-test-secret"
        try await receiver.test(.live) { hookClient in
            let hook = URL(string: "http://127.0.0.1:\(hookClient.port!)/hook")!
            try await GatewayHarness.withGateway(configure: {
                $0.callbacks = [.webhook(url: hook, secret: secret)]
                $0.callbackDelivery = CallbackDeliverySettings(retryForSeconds: 60, initialBackoffSeconds: 0.05)
            }) { browser, _, _ in
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("You are signed in"))
                #expect(done.html.contains("taking longer than usual"), "the first attempt failed, so the page says the hand-over is retried")
                // The retry happens in the background while the gateway runs.
                for _ in 0..<200 where recorder.requests.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
            }
        }
        let requests = recorder.requests
        #expect(requests.count == 2, "one failure, one retry")
        let last = try #require(requests.last)
        #expect(last.delivery != nil && last.delivery == requests.first?.delivery, "the receiver can drop duplicates by delivery id")
        let timestamp = try #require(last.timestamp)
        let key = SymmetricKey(data: Data(secret.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data((timestamp + "." + last.body).utf8), using: key)
        #expect(last.signature == "sha256=" + mac.map { String(format: "%02x", $0) }.joined())
        let object = try JSONSerialization.jsonObject(with: Data(last.body.utf8)) as? [String: Any]
        #expect(object?["outcome"] as? String == "success")
        #expect((object?["token"] as? [String: Any])?["accessToken"] is String)
    }

    @Test("during a secret rotation both signatures are sent, new first; each verifies with its own secret")
    func rotation() throws {
        let sink = WebhookCallbackSink(
            url: URL(string: "https://hooks.example/x")!,
            secret: "the-new-secret-of-16",
            previousSecret: "the-old-secret-of-16"
        )
        let body = Array(#"{"outcome":"cancelled"}"#.utf8)
        let header = sink.signatureHeader(timestamp: "1700000000", body: body)
        let parts = header.components(separatedBy: ", ")
        #expect(parts.count == 2)
        for (part, secret) in zip(parts, ["the-new-secret-of-16", "the-old-secret-of-16"]) {
            let mac = HMAC<SHA256>.authenticationCode(for: Data("1700000000.".utf8) + Data(body), using: SymmetricKey(data: Data(secret.utf8)))
            #expect(part == "sha256=" + mac.map { String(format: "%02x", $0) }.joined())
        }
        #expect(
            WebhookCallbackSink(url: sink.url, secret: sink.secret).signatureHeader(timestamp: "1", body: body).components(separatedBy: ", ").count
                == 1
        )
    }

    @Test("callbacks.previousWebhookSecretFile adds the old secret to the webhook")
    func rotationConfiguration() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rotation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "the-old-secret-of-16\n".write(to: directory.appendingPathComponent("old"), atomically: true, encoding: .utf8)
        let configuration = try GatewayConfiguration.load(
            file: nil,
            environment: [
                "HAAPI_GATEWAY_CALLBACKS_SINKS": "https://hooks.example/x", "HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET": "the-new-secret-of-16",
                "HAAPI_GATEWAY_CALLBACKS_PREVIOUS_WEBHOOK_SECRET_FILE": directory.appendingPathComponent("old").path,
            ]
        )
        #expect(
            configuration.callbacks == [
                .webhook(url: URL(string: "https://hooks.example/x")!, secret: "the-new-secret-of-16", previousSecret: "the-old-secret-of-16")
            ]
        )
    }
}
