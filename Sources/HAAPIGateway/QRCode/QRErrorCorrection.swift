/// The error correction level of a QR code and its block structure for versions 1 to 10 (ISO/IEC 18004, table 9).
public enum QRErrorCorrection: Sendable, CaseIterable {
    /// Recovers about 7 % of the symbol (the smallest code; for screens, where damage is rare).
    case low
    /// Recovers about 15 %.
    case medium

    /// The two bits of the format information.
    var formatBits: Int {
        switch self {
        case .low: 1
        case .medium: 0
        }
    }

    /// For a version: error correction codewords per block, and the blocks' data codeword counts.
    func blocks(version: Int) -> (ecPerBlock: Int, dataPerBlock: [Int]) {
        switch (self, version) {
        case (.low, 1): (7, [19])
        case (.low, 2): (10, [34])
        case (.low, 3): (15, [55])
        case (.low, 4): (20, [80])
        case (.low, 5): (26, [108])
        case (.low, 6): (18, [68, 68])
        case (.low, 7): (20, [78, 78])
        case (.low, 8): (24, [97, 97])
        case (.low, 9): (30, [116, 116])
        case (.low, _): (18, [68, 68, 69, 69])
        case (.medium, 1): (10, [16])
        case (.medium, 2): (16, [28])
        case (.medium, 3): (26, [44])
        case (.medium, 4): (18, [32, 32])
        case (.medium, 5): (24, [43, 43])
        case (.medium, 6): (16, [27, 27, 27, 27])
        case (.medium, 7): (18, [31, 31, 31, 31])
        case (.medium, 8): (22, [38, 38, 39, 39])
        case (.medium, 9): (22, [36, 36, 36, 37, 37])
        case (.medium, _): (26, [43, 43, 43, 43, 44])
        }
    }

    /// How many data codewords a version holds.
    func dataCapacity(version: Int) -> Int { blocks(version: version).dataPerBlock.reduce(0, +) }
}
