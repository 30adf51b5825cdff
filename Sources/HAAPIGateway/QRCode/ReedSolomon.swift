/// Reed–Solomon error correction, then interleaved.
enum QRCodewords {
    static func make(bytes: [UInt8], version: Int, errorCorrection: QRErrorCorrection) -> [UInt8] {
        let capacity = errorCorrection.dataCapacity(version: version)
        var bits: [Bool] = []
        func append(_ value: Int, count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, count: 4)
        append(bytes.count, count: version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), count: 8) }
        append(0, count: min(4, capacity * 8 - bits.count))
        append(0, count: (8 - bits.count % 8) % 8)
        var data = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while data.count < capacity {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }

        let (ecCount, sizes) = errorCorrection.blocks(version: version)
        let divisor = ReedSolomon.divisor(degree: ecCount)
        var blocks: [[UInt8]] = []
        var offset = 0
        for size in sizes {
            blocks.append(Array(data[offset..<offset + size]))
            offset += size
        }
        let corrections = blocks.map { ReedSolomon.remainder(of: $0, divisor: divisor) }
        var result: [UInt8] = []
        for index in 0..<(sizes.max() ?? 0) {
            for block in blocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<ecCount {
            for correction in corrections { result.append(correction[index]) }
        }
        return result
    }
}

/// Reed–Solomon error correction over GF(2⁸) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    /// The generator polynomial of `degree` (coefficients from the highest power down, the leading 1 left out).
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// The error correction codewords of `data`.
    static func remainder(of data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }

    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for shift in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int((y >> UInt8(shift)) & 1) * Int(x)
        }
        return UInt8(z)
    }
}
