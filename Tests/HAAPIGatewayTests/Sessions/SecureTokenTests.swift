import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway

@Suite("Random tokens (session ids, CSRF tokens, claims)")
struct SecureTokenTests {
    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test("a token is base64url of as many random bytes as asked, unpadded; none repeats, and every position takes nearly every byte value")
    func tokens() throws {
        for byteCount in [1, 5, 8, 9, 16, 32, 33] {
            let token = SecureToken.make(byteCount: byteCount)
            #expect(token.count == (byteCount * 4 + 2) / 3, "\(byteCount) bytes: \(token)")
            #expect(token.allSatisfy(Self.alphabet.contains), "\(token)")
            #expect(try #require(Base64URL.decode(token)).count == byteCount)
        }
        var seen = Set<String>()
        var byPosition = [Set<UInt8>](repeating: [], count: 32)
        for _ in 0..<2_000 {
            let token = SecureToken.make()
            #expect(seen.insert(token).inserted, "a token repeated")
            for (position, byte) in try #require(Base64URL.decode(token)).enumerated() { byPosition[position].insert(byte) }
        }
        // 2 000 random bytes at one position take nearly all 256 values (fewer than 200 is vanishingly unlikely): a
        // generator that fills only some bytes, or repeats its words, does not pass.
        #expect(byPosition.allSatisfy { $0.count >= 200 }, "\(byPosition.map(\.count))")
    }

    @Test("base64url without padding: RFC 4648's test vectors, the two characters that differ from base64, and Foundation's encoding of random bytes")
    func base64URL() throws {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (text, encoded) in vectors {
            #expect(Base64URL.encode(Array(text.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Data(text.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        for length in 0..<70 {
            let data = Data((0..<length).map { _ in UInt8.random(in: .min ... .max) })
            let foundation = data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(data) == foundation)
            #expect(Base64URL.decode(foundation) == data)
        }
    }
}
