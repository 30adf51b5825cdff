import Crypto

/// A verified passkey of a demo user: its credential id, public key and the last signature counter seen.
struct StoredPasskey: Sendable {
    let credentialID: [UInt8]
    let publicKey: ImmutableKey<P256.Signing.PublicKey>
    var signCount: UInt32
}
