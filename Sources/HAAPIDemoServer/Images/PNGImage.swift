import Foundation

/// A small PNG made in code (PNG specification, ISO/IEC 15948): 8-bit RGB, no interlace, the image data in one
/// stored (uncompressed) deflate block inside a zlib stream (RFC 1950, RFC 1951 §3.2.4).
enum PNGImage {
    /// The picture behind the `illustration` link of the approval waiting step: a `size`×`size` hourglass-like
    /// pattern (two triangles meeting in the middle) on a light background.
    static func waiting(size: Int = 16) -> Data {
        let side = max(2, min(size, 64))
        var pixels: [UInt8] = []
        for y in 0..<side {
            for x in 0..<side {
                let fromCenter = abs(2 * y - (side - 1))
                let inside = abs(2 * x - (side - 1)) <= fromCenter
                pixels += inside ? [0x2B, 0x6C, 0xB0] : [0xF2, 0xF4, 0xF7]
            }
        }
        return encode(width: side, height: side, rgb: pixels)
    }

    /// Encodes `rgb` (width × height × 3 bytes, rows top to bottom). At most 64×64 keeps the data in one stored block.
    static func encode(width: Int, height: Int, rgb: [UInt8]) -> Data {
        var raw: [UInt8] = []
        for row in 0..<height {
            raw.append(0)  // filter type None
            raw += rgb[(row * width * 3)..<((row + 1) * width * 3)]
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        let length = UInt16(data.count)
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, no dictionary, FCHECK making 0x7801 a multiple of 31
        stream += [0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]  // final stored block
        stream += data
        stream += bigEndian(adler32(data))
        return stream
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return (b << 16) | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
