import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import Tracing

/// `https://…`: POSTs the outcome as JSON with `X-HAAPI-Gateway-Timestamp`,
/// `X-HAAPI-Gateway-Signature: sha256=<hex HMAC-SHA256 of "timestamp.body">` and `X-HAAPI-Gateway-Delivery: <id>`
/// (the same id on every retry, so the receiver can drop duplicates). Any 2xx answer is a delivery. During a secret
/// rotation the signature header lists one signature per secret, the new one first (`sha256=<new>, sha256=<old>`): a
/// receiver accepts the request when any of them matches its secret. Printed (`description`, `debugDescription`,
/// `dump`), it is its ``name``: no secret.
struct WebhookCallbackSink: CallbackSink, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let url: URL
    let secret: String
    var previousSecret: String? = nil
    /// How long one attempt may take.
    var timeout: TimeAmount = .seconds(5)

    var name: String { CallbackSinkConfiguration.webhook(url: url, secret: "").description }

    /// The sink's ``name``.
    var description: String { name }

    /// The same as ``description``.
    var debugDescription: String { name }

    /// No members, so that `dump` shows the ``name`` alone and no secret.
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// The signature header value for a timestamp and body.
    static func signature(secret: String, timestamp: String, body: [UInt8]) -> String {
        let key = SymmetricKey(data: Data(secret.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array((timestamp + ".").utf8) + body, using: key)
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// The signature header: the current secret's signature, then the previous secret's during a rotation.
    func signatureHeader(timestamp: String, body: [UInt8]) -> String {
        ([secret] + (previousSecret.map { [$0] } ?? [])).map { Self.signature(secret: $0, timestamp: timestamp, body: body) }.joined(separator: ", ")
    }

    /// The webhooks' client, AsyncHTTPClient's own spans off: they would record the URL with its query.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    func deliver(_ delivery: CallbackDelivery) async throws {
        let timestamp = String(Int(Date().timeIntervalSince1970))
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-HAAPI-Gateway-Timestamp", value: timestamp)
        request.headers.add(name: "X-HAAPI-Gateway-Signature", value: signatureHeader(timestamp: timestamp, body: delivery.document))
        request.headers.add(name: "X-HAAPI-Gateway-Delivery", value: delivery.id)
        request.body = .bytes(ByteBuffer(bytes: delivery.document))
        let response: HTTPClientResponse
        do {
            // The delivery's span (``CallbackDeliverySpan``) goes on at the receiver.
            var trace: [String: String] = [:]
            if let context = ServiceContext.current { InstrumentationSystem.instrument.inject(context, into: &trace, using: DictionaryInjector()) }
            for (name, value) in trace { request.headers.replaceOrAdd(name: name, value: value) }
            response = try await Self.client.execute(request, timeout: timeout)
            _ = try? await response.body.collect(upTo: 64 * 1024)
        } catch {
            throw GatewayError(.internalError, "the webhook could not be reached")
        }
        guard (200..<300).contains(Int(response.status.code)) else {
            throw GatewayError(.internalError, "the webhook answered \(response.status.code)")
        }
    }
}
