/// The codeword sequence of a byte-mode QR code: data bits padded to capacity, split into blocks, each with its
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
