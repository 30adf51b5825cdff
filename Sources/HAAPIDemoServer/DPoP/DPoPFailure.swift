/// Why a DPoP proof was refused. Rendered as `invalid_dpop_proof`/`use_dpop_nonce` by each endpoint.
enum DPoPFailure: Error, Sendable, Equatable {
    /// No `DPoP` header where one is required.
    case missing
    /// The proof is invalid; the text says why (never the proof itself).
    case invalid(String)
    /// The proof lacks the current server nonce (for its key, when nonces are per key); the proof's key thumbprint,
    /// whose nonce the answer carries.
    case useNonce(keyThumbprint: String)
}
