import Foundation

/// How the server issues and checks DPoP nonces when it requires them (``DemoServerConfiguration/requireDPoPNonce``).
enum DPoPNoncePolicy: Sendable {
    /// One nonce for every key.
    case serverWide(DPoPNonceSource)
    /// One nonce per DPoP key (``DemoServerConfiguration/noncesPerKey``).
    case perKey(PerKeyDPoPNonceSource)

    /// The nonce for a response to a request whose proof was made with `keyThumbprint`; nil when nonces are per key
    /// and the key is unknown (no verifiable proof).
    func current(for keyThumbprint: String?, now: Date = Date()) -> String? {
        switch self {
        case .serverWide(let source): return source.current(now: now)
        case .perKey(let source): return keyThumbprint.map { source.current(for: $0, now: now) }
        }
    }

    /// Whether a proof made with `keyThumbprint` may carry `nonce`.
    func accepts(_ nonce: String?, keyThumbprint: String, now: Date = Date()) -> Bool {
        switch self {
        case .serverWide(let source): return source.accepts(nonce, now: now)
        case .perKey(let source): return source.accepts(nonce, keyThumbprint: keyThumbprint, now: now)
        }
    }
}
