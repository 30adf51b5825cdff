/// A DPoP proof that passed every check of RFC 9449 §4.3.
struct VerifiedDPoPProof: Sendable {
    /// The RFC 7638 thumbprint of the proof's public key (`cnf.jkt` of bound tokens).
    let keyThumbprint: String
}
