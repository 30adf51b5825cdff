import Crypto
import Foundation
import Testing

@testable import HAAPIGateway

/// AES-256-GCM over a key list: the first key seals, any opens by its id; a document is bound to its table and row.
@Suite("Session cipher")
struct SessionCipherTests {
    let key = SessionEncryptionKey.random()
    let document = Array(#"{"haapiToken":"secret"}"#.utf8)

    @Test("a document opens for its own row; for another row or table, altered in any byte, or truncated it is refused")
    func bindingAndTampering() throws {
        let cipher = try #require(SessionCipher(keys: [key]))
        let sealed = cipher.seal(document, table: "haapi_gateway_sessions", rowID: "row-a")
        #expect(try cipher.open(sealed, table: "haapi_gateway_sessions", rowID: "row-a").get() == document)
        #expect(cipher.open(sealed, table: "haapi_gateway_sessions", rowID: "row-b") == .failure(.authenticationFailed))
        #expect(cipher.open(sealed, table: "haapi_gateway_outbox", rowID: "row-a") == .failure(.authenticationFailed))
        for index in sealed.indices {
            var altered = sealed
            altered[index] ^= 0x01
            #expect((try? cipher.open(altered, table: "haapi_gateway_sessions", rowID: "row-a").get()) == nil, "byte \(index) altered")
        }
        #expect(cipher.open(Array(sealed.prefix(20)), table: "haapi_gateway_sessions", rowID: "row-a") == .failure(.malformed))
        #expect(cipher.open([], table: "haapi_gateway_sessions", rowID: "row-a") == .failure(.malformed))
        #expect(sealed.count == document.count + 1 + 8 + 12 + 16)
        #expect(cipher.seal(document, table: "t", rowID: "r") != cipher.seal(document, table: "t", rowID: "r"), "a fresh nonce every time")
        // The table and row id are length-prefixed: ("ab", "c") and ("a", "bc") are different places.
        #expect(cipher.open(cipher.seal(document, table: "ab", rowID: "c"), table: "a", rowID: "bc") == .failure(.authenticationFailed))
    }

    @Test("the first key seals, every key opens by the id in the document; a removed key's documents are refused")
    func keyRotation() throws {
        let old = SessionEncryptionKey.random()
        let new = SessionEncryptionKey.random()
        let sealedOld = try #require(SessionCipher(keys: [old])).seal(document, table: "t", rowID: "r")
        let rotating = try #require(SessionCipher(keys: [new, old]))
        #expect(try rotating.open(sealedOld, table: "t", rowID: "r").get() == document)
        #expect(!rotating.isSealedWithCurrentKey(sealedOld))
        let sealedNew = rotating.seal(document, table: "t", rowID: "r")
        #expect(rotating.isSealedWithCurrentKey(sealedNew))
        #expect(Array(sealedNew[1...8]) == new.id)
        #expect(try #require(SessionCipher(keys: [new])).open(sealedOld, table: "t", rowID: "r") == .failure(.noMatchingKey))
        #expect(SessionCipher(keys: []) == nil)
    }

    @Test("a key is 32 bytes of base64; its id is the first 8 bytes of its SHA-256; its description shows only the id")
    func keys() throws {
        let bytes = (0..<32).map { UInt8($0) }
        let key = try #require(SessionEncryptionKey(base64: Data(bytes).base64EncodedString()))
        #expect(key.id == Array(SHA256.hash(data: bytes).prefix(8)))
        #expect(key.description == "SessionEncryptionKey(id: \(key.idHex))")
        #expect(!key.description.contains(key.base64))
        #expect(SessionEncryptionKey(base64: Data(bytes.prefix(31)).base64EncodedString()) == nil)
        #expect(SessionEncryptionKey(base64: "not base64!") == nil)
    }
}
