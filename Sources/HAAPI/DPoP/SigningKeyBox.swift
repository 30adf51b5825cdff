import Crypto

/// Holds a P-256 private key so it can travel between tasks.
///
/// swift-crypto does not mark `P256.Signing.PrivateKey` as `Sendable` on Linux. The key is never mutated
/// after creation and BoringSSL signing with a key is thread-safe, so sharing it is safe; this box is the
/// one place that asserts it.
struct SigningKeyBox: @unchecked Sendable {
    let key: P256.Signing.PrivateKey
}
