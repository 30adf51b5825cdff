import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore

/// `webhook`: POSTs the outcome as JSON with `X-HAAPI-Gateway-Timestamp` and
/// `X-HAAPI-Gateway-Signature: sha256=<hex HMAC-SHA256 of "timestamp.body">`, retrying with exponential backoff.
struct WebhookCallbackSink: CallbackSink {
    let url: URL
    let secret: String
    var maximumAttempts = 5
    var initialBackoff: Duration = .milliseconds(500)

    var name: String { "webhook:\(url.host ?? "?")" }

    /// The signature header value for a timestamp and body.
    static func signature(secret: String, timestamp: String, body: [UInt8]) -> String {
        let key = SymmetricKey(data: Data(secret.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array((timestamp + ".").utf8) + body, using: key)
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    func deliver(_ document: [UInt8]) async throws {
        var backoff = initialBackoff
        var lastError: (any Error)?
        for attempt in 1...max(1, maximumAttempts) {
            do {
                try await post(document)
                return
            } catch {
                lastError = error
                guard attempt < maximumAttempts else { break }
                try await Task.sleep(for: backoff)
                backoff *= 2
            }
        }
        throw lastError ?? GatewayError(.internalError, "webhook delivery failed")
    }

    private func post(_ document: [UInt8]) async throws {
        let timestamp = String(Int(Date().timeIntervalSince1970))
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-HAAPI-Gateway-Timestamp", value: timestamp)
        request.headers.add(name: "X-HAAPI-Gateway-Signature", value: Self.signature(secret: secret, timestamp: timestamp, body: document))
        request.body = .bytes(ByteBuffer(bytes: document))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try? await response.body.collect(upTo: 64 * 1024)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw GatewayError(.internalError, "webhook answered \(response.status.code)")
        }
    }
}
