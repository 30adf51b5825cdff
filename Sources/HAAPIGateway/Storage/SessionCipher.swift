import Crypto
import Foundation

/// Seals and opens the documents the gateway stores in PostgreSQL (sessions, pending callback deliveries) with
/// AES-256-GCM under a list of keys: the first key seals, every key is tried by its id when opening, so keys rotate
/// (put a new key first, keep the old one after it until every document sealed under it has expired or been saved
/// again).
///
/// A sealed document is `0x01 ‖ key id (8 bytes) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`. The associated data binds it
/// to where it is stored: the format byte and key id, the table and the row's id. A document moved to another row or
/// table, or altered in any byte, does not open.
///
/// Nonces are random (96 bits), so one key should seal fewer than 2³² documents (NIST SP 800-38D §8.3): every save is a
/// sealing; rotate the key well before (at 1 000 saves a second, that is 50 days).
public struct SessionCipher: Sendable {
    /// The format version written first in every sealed document.
    static let formatVersion: UInt8 = 1
    static let nonceByteCount = 12
    static let tagByteCount = 16
    static var headerByteCount: Int { 1 + SessionEncryptionKey.idByteCount }

    /// The keys, the sealing one first.
    public let keys: [SessionEncryptionKey]

    /// A cipher under `keys`; nil when the list is empty.
    /// - Parameter keys: The keys, the one that seals first.
    public init?(keys: [SessionEncryptionKey]) {
        guard !keys.isEmpty else { return nil }
        self.keys = keys
    }

    /// Seals `document` for the row `rowID` of `table` under the first key.
    /// - Parameters:
    ///   - document: The bytes to protect.
    ///   - table: The table the row is in.
    ///   - rowID: The row's id.
    /// - Returns: The sealed document.
    public func seal(_ document: [UInt8], table: String, rowID: String) -> [UInt8] {
        let key = keys[0]
        let header = [Self.formatVersion] + key.id
        // AES.GCM.seal fails only for an invalid key or nonce size, which cannot happen here.
        let box = try! AES.GCM.seal(
            document,
            using: key.symmetricKey,
            nonce: AES.GCM.Nonce(),
            authenticating: Self.associatedData(header, table, rowID)
        )
        return header + Array(box.nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    /// Opens a document sealed for the row `rowID` of `table`.
    /// - Parameters:
    ///   - sealed: What ``seal(_:table:rowID:)`` returned.
    ///   - table: The table the row is in.
    ///   - rowID: The row's id.
    /// - Returns: The document, or why it cannot be opened (no key with its id, a tag that does not verify, another
    ///   row's document, not a sealed document).
    public func open(_ sealed: [UInt8], table: String, rowID: String) -> Result<[UInt8], SessionCipherError> {
        let minimum = Self.headerByteCount + Self.nonceByteCount + Self.tagByteCount
        guard sealed.count >= minimum, sealed[0] == Self.formatVersion else { return .failure(.malformed) }
        let header = Array(sealed[0..<Self.headerByteCount])
        let keyID = Array(header[1...])
        guard let key = keys.first(where: { $0.id == keyID }) else { return .failure(.noMatchingKey) }
        let nonceEnd = Self.headerByteCount + Self.nonceByteCount
        let tagStart = sealed.count - Self.tagByteCount
        guard let nonce = try? AES.GCM.Nonce(data: sealed[Self.headerByteCount..<nonceEnd]),
            let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: sealed[nonceEnd..<tagStart], tag: sealed[tagStart...])
        else { return .failure(.malformed) }
        guard let document = try? AES.GCM.open(box, using: key.symmetricKey, authenticating: Self.associatedData(header, table, rowID)) else {
            return .failure(.authenticationFailed)
        }
        return .success(Array(document))
    }

    /// Whether `sealed` was sealed under the first (sealing) key.
    public func isSealedWithCurrentKey(_ sealed: [UInt8]) -> Bool {
        sealed.count >= Self.headerByteCount && Array(sealed[1..<Self.headerByteCount]) == keys[0].id
    }

    /// The header, then the table and the row id, each preceded by its length, so that no two places give the same bytes.
    private static func associatedData(_ header: [UInt8], _ table: String, _ rowID: String) -> [UInt8] {
        var data = header
        for part in [table, rowID] {
            let bytes = Array(part.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { data.append(contentsOf: $0) }
            data.append(contentsOf: bytes)
        }
        return data
    }
}
