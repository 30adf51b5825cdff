import Crypto
import Foundation
import HAAPI

/// A token of the gateway's own making: 32 random bytes and their HMAC-SHA256 under a key of the deployment's
/// (base64url, joined by a dot). A value an attacker chose (a cookie planted from a sibling host, say) is not one. Used
/// for the verification page's double-submit tokens and the kiosk's final-page tickets, each with keys of its own
/// (``keys(for:derivedFrom:)``). Every replica makes and checks the same tokens: the keys are derived from the sessions'
/// encryption keys with PostgreSQL, made at startup otherwise (one process).
package struct HMACToken: Sendable {
    private let keys: [Data]

    /// - Parameter keys: The keys, the first making tokens, every one checking them (not empty).
    init(keys: [Data]) {
        precondition(!keys.isEmpty, "a token needs a key")
        self.keys = keys
    }

    /// The keys for `purpose`: one per sessions' encryption key (HKDF-SHA256 labelled with the purpose), or one made
    /// now without them.
    package static func keys(for purpose: String, derivedFrom cipher: SessionCipher?) -> [Data] {
        guard let cipher else { return [SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }] }
        return cipher.keys.map { key in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: key.symmetricKey, info: Data("haapi-gateway \(purpose)".utf8), outputByteCount: 32)
                .withUnsafeBytes { Data($0) }
        }
    }

    /// A new token.
    func make() -> String {
        let random = SecureToken.make()
        return random + "." + Self.mac(random, key: keys[0])
    }

    /// Whether `token` is one this gateway made (under any of its keys).
    func isOwn(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 43, token.utf8.count < 128 else { return false }
        return keys.contains { SecureToken.constantTimeEquals(String(parts[1]), Self.mac(String(parts[0]), key: $0)) }
    }

    private static func mac(_ value: String, key: Data) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(value.utf8), using: SymmetricKey(data: key))))
    }
}
