import Foundation

/// Base64url without padding (RFC 4648 §5, as JOSE uses it: RFC 7515 §2): DPoP proofs and JWTs here, and the gateway's
/// tokens, row ids and sealed values.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes.
    /// - Parameter data: The bytes.
    public static func encode<Bytes: Sequence>(_ data: Bytes) -> String where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity((data.underestimatedCount * 4 + 2) / 3)
        var iterator = data.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let chunk = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            if second != nil { output.append(alphabet[Int(chunk >> 6 & 0x3F)]) }
            if third != nil { output.append(alphabet[Int(chunk & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a base64url string (padding optional); `nil` when invalid.
    /// - Parameter text: The encoded text.
    public static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
