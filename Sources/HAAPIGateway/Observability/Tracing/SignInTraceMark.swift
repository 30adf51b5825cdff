import Crypto
import Foundation
import HAAPI
import Tracing

/// The trace a sign-in belongs to, carried in its session cookie after the session id (`<id>.<context>.<mac>`), so that
/// every request of the sign-in, on whichever replica it lands, continues the trace its first page started
/// (``RequestSpanMiddleware``) before any storage is read. `<context>` is what the tracer's propagator writes for the
/// span current when the cookie is made (W3C `traceparent` and `tracestate` by default; `OTEL_PROPAGATORS` may name
/// others), base64url. The MAC (HMAC-SHA256 under keys every replica derives from the sessions' encryption keys) covers
/// the session id and the context: a browser cannot join a trace of its choosing, nor move a mark to another session.
/// Only with tracing on; a trace id is not a secret.
package struct SignInTraceMark: Sendable {
    private let keys: [Data]

    /// - Parameter keys: The keys, the first making marks, every one checking them (not empty).
    init(keys: [Data]) {
        precondition(!keys.isEmpty, "a mark needs a key")
        self.keys = keys
    }

    /// The cookie value for session `id`: the id, and when a span is current, its context and their MAC.
    func cookieValue(id: String, context: ServiceContext? = ServiceContext.current) -> String {
        guard !id.isEmpty, let context else { return id }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        guard !carrier.isEmpty else { return id }
        let lines = carrier.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        let encoded = Base64URL.encode(Data(lines.utf8))
        return id + "." + encoded + "." + Self.mac(id: id, context: encoded, key: keys[0])
    }

    /// The session id of a cookie value: what comes before its mark, if it has one (whether tracing is on or not, so that
    /// a sign-in goes on across that change).
    static func sessionID(in value: some StringProtocol) -> String {
        String(value.prefix { $0 != "." })
    }

    /// The trace context a cookie value's mark carries, as the headers the propagator reads; nil without a mark, or with
    /// one that does not verify.
    func context(in value: some StringProtocol) -> [String: String]? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, value.utf8.count < 1024 else { return nil }
        let (id, encoded, mac) = (String(parts[0]), String(parts[1]), String(parts[2]))
        guard keys.contains(where: { SecureToken.constantTimeEquals(mac, Self.mac(id: id, context: encoded, key: $0)) }),
            let data = Base64URL.decode(encoded), let lines = String(data: data, encoding: .utf8)
        else { return nil }
        var carrier: [String: String] = [:]
        for line in lines.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            carrier[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return carrier
    }

    private static func mac(id: String, context: String, key: Data) -> String {
        let message = Data((id + "\n" + context).utf8)
        return Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))))
    }
}
