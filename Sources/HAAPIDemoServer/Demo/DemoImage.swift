import Crypto
import Foundation

/// A small PNG derived from a URL, for the polling step's `activation` image link.
///
/// It is a deterministic pattern (from SHA-256 of the URL), not a scannable QR code: the demo
/// server has no QR encoder. The step's title and messages say so and show the link itself.
enum DemoImage {
    /// A `data:image/png;base64,...` URI.
    static func pngDataURI(for text: String) -> String {
        "data:image/png;base64," + png(for: text).base64EncodedString()
    }

    static func png(for text: String) -> Data {
        let modules = 16, scale = 4, quiet = 2
        let side = (modules + 2 * quiet) * scale
        let bits = Array(SHA256.hash(data: Data(text.utf8))) + Array(SHA256.hash(data: Data((text + "#").utf8)))
        var raw = Data()
        for y in 0..<side {
            raw.append(0)  // filter: none
            for x in 0..<side {
                let mx = x / scale - quiet, my = y / scale - quiet
                var dark = false
                if mx >= 0, my >= 0, mx < modules, my < modules {
                    // mirror the left half for a symmetric, badge-like pattern
                    let column = mx < modules / 2 ? mx : modules - 1 - mx
                    let index = my * (modules / 2) + column
                    dark = bits[index / 8] & (1 << (index % 8)) != 0
                }
                raw.append(dark ? 0 : 255)
            }
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: UInt32(side))
        header.append(bigEndian: UInt32(side))
        header.append(contentsOf: [8, 0, 0, 0, 0])  // 8-bit grayscale
        png.append(chunk: "IHDR", header)
        png.append(chunk: "IDAT", zlibStored(raw))
        png.append(chunk: "IEND", Data())
        return png
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    private static func zlibStored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            out.append(final)
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8((~length >> 8) & 0xFF))
            out.append(data.subdata(in: offset..<offset + length))
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        out.append(bigEndian: (b << 16) | a)
        return out
    }

    fileprivate static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }
}

extension Data {
    fileprivate mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    fileprivate mutating func append(chunk type: String, _ body: Data) {
        append(bigEndian: UInt32(body.count))
        let typed = Data(type.utf8) + body
        append(typed)
        append(bigEndian: DemoImage.crc32(typed))
    }
}
