import Crypto
import Foundation
import HAAPI

/// The refresh token a device holds: the upstream's refresh token sealed (AES-256-GCM) by the gateway, with the device
/// client's id as associated data. Only the gateway can open it, and only for the client it was handed to — a refresh
/// token of one device client is refused for another — while the upstream's token never leaves the gateway in the clear.
/// When the upstream bound the tokens to the flow's DPoP key (token-bound codes), the key is sealed in too, so that the
/// gateway can prove the refresh (RFC 9449 §5: a bound refresh token needs a proof of the same key).
///
/// Format: `hgr1.` and base64url of the 12-byte nonce, the ciphertext (JSON: `r` the refresh token, `k` the key's PEM)
/// and the 16-byte tag.
///
/// Keys rotate: the first seals, every one opens (a token sealed under an older key keeps working until that key is
/// dropped). Replicas must share them: `devices.refreshTokenKeyFile`, or keys derived from the sessions' encryption keys
/// (``derivedKeys(from:)``).
struct SealedRefreshToken: Sendable {
    static let prefix = "hgr1."
    private let keyBytes: [Data]
    private var keys: [SymmetricKey] { keyBytes.map { SymmetricKey(data: $0) } }

    /// - Parameter keys: The 256-bit keys, the sealing one first (not empty).
    init(keys: [Data]) {
        precondition(!keys.isEmpty, "a sealed refresh token needs a key")
        self.keyBytes = keys
    }

    /// One key per sessions' encryption key (HKDF-SHA256 with its own label), in the same order: replicas with one key
    /// file seal alike, and rotating that file rotates these.
    static func derivedKeys(from cipher: SessionCipher) -> [Data] {
        cipher.keys.map { key in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: key.symmetricKey, info: Data("haapi-gateway device refresh tokens".utf8), outputByteCount: 32)
                .withUnsafeBytes { Data($0) }
        }
    }

    /// What a sealed refresh token holds.
    struct Contents: Codable, Equatable {
        /// The upstream's refresh token.
        let r: String
        /// The PEM of the DPoP key the tokens are bound to, if they are.
        let k: String?
    }

    /// Seals the upstream's `refreshToken` (and the DPoP key it is bound to) for `clientID`.
    func seal(_ contents: Contents, for clientID: String) -> String? {
        guard let plain = try? JSONEncoder().encode(contents),
            let box = try? AES.GCM.seal(plain, using: keys[0], authenticating: Data(clientID.utf8)), let combined = box.combined
        else { return nil }
        return Self.prefix + Base64URL.encode(combined)
    }

    /// What `sealed` holds, when it was sealed by this key for `clientID`; nil otherwise (another client's, another key's,
    /// altered, or not one of ours).
    func open(_ sealed: String, for clientID: String) -> Contents? {
        guard sealed.hasPrefix(Self.prefix), sealed.utf8.count <= 8192, let data = Base64URL.decode(String(sealed.dropFirst(Self.prefix.count))),
            let box = try? AES.GCM.SealedBox(combined: data),
            let plain = keys.lazy.compactMap({ key in try? AES.GCM.open(box, using: key, authenticating: Data(clientID.utf8)) }).first
        else { return nil }
        return try? JSONDecoder().decode(Contents.self, from: plain)
    }
}
