import Foundation
import Synchronization

/// The latest `DPoP-Nonce` per DPoP key, for token requests made outside a flow (refresh and revocation with a bound
/// key). Flows keep their own nonce (``DPoPProofing``). Bounded: past ``capacity`` keys it starts again empty, which
/// costs each key at most one `use_dpop_nonce` retry.
public final class DPoPNonceStore: Sendable {
    /// How many keys the store remembers nonces for.
    public static let capacity = 1024
    private let nonces = Mutex<[String: String]>([:])

    /// Creates an empty store.
    public init() {}

    /// The nonce last given for `key`, if any.
    public func nonce(for key: DPoPKey) -> String? {
        let thumbprint = key.publicJWK.thumbprint
        return nonces.withLock { $0[thumbprint] }
    }

    /// Remembers `nonce` for `key`.
    public func update(_ nonce: String, for key: DPoPKey) {
        let thumbprint = key.publicJWK.thumbprint
        nonces.withLock { nonces in
            if nonces.count >= Self.capacity, nonces[thumbprint] == nil { nonces.removeAll() }
            nonces[thumbprint] = nonce
        }
    }
}
