import Crypto
import Foundation

/// A 256-bit AES key that seals stored documents, with its id: the first 8 bytes of the SHA-256 of the key, written
/// into every document it seals so that opening picks the right key of a list (`sessions.encryptionKeysFile`).
///
/// Its ``description`` shows the id only, never the key.
public struct SessionEncryptionKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The length of a key, in bytes.
    public static let byteCount = 32
    /// The length of a key id, in bytes.
    public static let idByteCount = 8

    let bytes: [UInt8]
    /// The first 8 bytes of the key's SHA-256 (`base64 -d <<< KEY | sha256sum | cut -c1-16` in hex).
    public let id: [UInt8]

    /// A key from its 32 bytes; nil for any other length.
    /// - Parameter bytes: The key.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Array(bytes)
        self.id = Array(SHA256.hash(data: self.bytes).prefix(Self.idByteCount))
    }

    /// A key from one line of a key file: the base64 of 32 bytes (`openssl rand -base64 32`); nil otherwise.
    /// - Parameter base64: The line, without surrounding whitespace.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64) else { return nil }
        self.init(bytes: data)
    }

    /// A new random key (tests, and `openssl rand -base64 32` for operators).
    public static func random() -> SessionEncryptionKey {
        SessionEncryptionKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })!
    }

    /// The key as a line of a key file.
    public var base64: String { Data(bytes).base64EncodedString() }

    /// The id in hex.
    public var idHex: String { id.map { String(format: "%02x", $0) }.joined() }

    public var description: String { "SessionEncryptionKey(id: \(idHex))" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// No members, so that `dump` shows ``description`` alone and no secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    var symmetricKey: SymmetricKey { SymmetricKey(data: bytes) }
}
