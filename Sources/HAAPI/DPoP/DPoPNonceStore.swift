import Foundation
import Synchronization

/// The latest `DPoP-Nonce` per origin (scheme, host, port), updated from every response that carries one.
public final class DPoPNonceStore: Sendable {
    private let nonces = Mutex<[String: String]>([:])

    /// Creates an empty store.
    public init() {}

    /// The nonce for the origin of `url`, if any.
    /// - Parameter url: A request URL.
    public func nonce(for url: URL) -> String? {
        let key = OriginGuard.origin(of: url)
        return nonces.withLock { $0[key] }
    }

    /// Remembers `nonce` for the origin of `url`.
    /// - Parameters:
    ///   - nonce: The value of a `DPoP-Nonce` header.
    ///   - url: The request URL the response belongs to.
    public func update(_ nonce: String, for url: URL) {
        let key = OriginGuard.origin(of: url)
        nonces.withLock { $0[key] = nonce }
    }
}
