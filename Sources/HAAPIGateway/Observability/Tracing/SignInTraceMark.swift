import Crypto
import Foundation
import HAAPI
import Tracing

/// The trace a sign-in belongs to, carried in its session cookie after the session id (`<id>.<traceparent>.<mac>`), so
/// that every request of the sign-in, on whichever replica it lands, continues the trace its first page started
/// (``RequestSpanMiddleware``) before any storage is read. The MAC (HMAC-SHA256 under keys every replica derives from the
/// sessions' encryption keys) covers the session id and the trace context: a browser cannot join a trace of its choosing,
/// nor move a mark to another session. Only with tracing on; a trace id is not a secret.
package struct SignInTraceMark: Sendable {
    private let keys: [Data]

    /// - Parameter keys: The keys, the first making marks, every one checking them (not empty).
    init(keys: [Data]) {
        precondition(!keys.isEmpty, "a mark needs a key")
        self.keys = keys
    }

    /// The cookie value for session `id`: the id, and when a span is current, its trace context and their MAC.
    func cookieValue(id: String, context: ServiceContext? = ServiceContext.current) -> String {
        guard !id.isEmpty, let context, let traceparent = Self.traceparent(of: context) else { return id }
        return id + "." + traceparent + "." + Self.mac(id: id, traceparent: traceparent, key: keys[0])
    }

    /// The session id and the verified trace context of a cookie value; a value without a mark, or with one that does not
    /// verify, is taken as a bare id with no trace.
    func read(_ value: some StringProtocol) -> (id: String, traceparent: String?) {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, value.utf8.count < 256 else { return (String(value), nil) }
        let (id, traceparent, mac) = (String(parts[0]), String(parts[1]), String(parts[2]))
        let verified = keys.contains { SecureToken.constantTimeEquals(mac, Self.mac(id: id, traceparent: traceparent, key: $0)) }
        return (id, verified ? traceparent : nil)
    }

    /// The current span's `traceparent`, as the W3C propagator writes it.
    static func traceparent(of context: ServiceContext) -> String? {
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        guard let value = carrier["traceparent"], value.utf8.allSatisfy({ $0 != UInt8(ascii: ".") }) else { return nil }
        return value
    }

    private static func mac(id: String, traceparent: String, key: Data) -> String {
        let message = Data((id + "\n" + traceparent).utf8)
        return Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))))
    }
}
