import Foundation
import Testing

/// What ``UpstreamProxy`` answers instead of forwarding, while a fault is set.
enum UpstreamFault: Sendable, CustomTestStringConvertible {
    /// An HTTP status with a body and content type (500/502/503 JSON, a proxy's HTML error page, truncated JSON,
    /// a document of the wrong shape).
    case answer(status: Int, contentType: String, body: String)
    /// Nothing until `seconds` have passed or the fault is cleared (longer than the gateway's upstream timeout).
    case silence(seconds: Int)
    /// The headers at once, then the body a byte every `millisecondsPerByte` (the rest at once when the fault is cleared).
    case slowBody(body: String, millisecondsPerByte: Int)
    /// A fresh `use_dpop_nonce` challenge on every request, however often the client retries.
    case nonceStorm
    /// Every request forwarded, each after `milliseconds` (slow, but each call within the timeout).
    case delay(milliseconds: Int)
    /// The first request whose path ends with `pathSuffix` answered with `status` (not forwarded), then the fault clears.
    case answerOnce(pathSuffix: String, status: Int)

    var testDescription: String {
        switch self {
        case .answer(let status, let contentType, let body): "\(status) \(contentType) \(body.prefix(30))"
        case .silence(let seconds): "no answer for \(seconds) s"
        case .slowBody(let body, let milliseconds): "\(body.count) bytes, one per \(milliseconds) ms"
        case .nonceStorm: "DPoP nonce storm"
        case .delay(let milliseconds): "every answer \(milliseconds) ms late"
        case .answerOnce(let suffix, let status): "\(status) once for …\(suffix)"
        }
    }
}
