/// The module grid of a QR code while it is built: function patterns (finders, timing, alignment, format and version
/// information), the data placed in the standard zigzag, and masking with its penalty score.
struct QRMatrix {
    let version: Int
    let size: Int
    private(set) var modules: [[Bool]]
    private var isFunction: [[Bool]]

    init(version: Int) {
        self.version = version
        self.size = 17 + 4 * version
        self.modules = Array(repeating: Array(repeating: false, count: size), count: size)
        self.isFunction = modules
    }

    /// Row `y`, column `x`.
    private mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            setFunction(x: 6, y: index, dark: index % 2 == 0)
            setFunction(x: index, y: 6, dark: index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    setFunction(x: x + dx, y: y + dy, dark: distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { setFunction(x: x + dx, y: y + dy, dark: max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(errorCorrection: .low, mask: 0)  // reserves the area; redrawn when masked
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for index in 0..<18 {
                let dark = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3
                let b = index / 3
                setFunction(x: a, y: b, dark: dark)
                setFunction(x: b, y: a, dark: dark)
            }
        }
    }

    /// The centres of the alignment patterns (ISO/IEC 18004 annex E) for versions up to 10.
    private var alignmentPositions: [Int] {
        switch version {
        case 1: []
        case 2...6: [6, 10 + 4 * version]
        case 7: [6, 22, 38]
        case 8: [6, 24, 42]
        case 9: [6, 26, 46]
        default: [6, 28, 50]
        }
    }

    private mutating func drawFormatBits(errorCorrection: QRErrorCorrection, mask: Int) {
        let data = errorCorrection.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for index in 9..<15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }
        for index in 0..<8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8..<15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
        setFunction(x: 8, y: size - 8, dark: true)
    }

    /// Places the codewords in two-column strips from the bottom right, upwards and downwards in turn, skipping column 6.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y][x], bitIndex < codewords.count * 8 else { continue }
                    modules[y][x] = (codewords[bitIndex >> 3] >> UInt8(7 - bitIndex & 7)) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// A copy with mask pattern `mask` applied to the data modules and the matching format information.
    func masked(_ mask: Int, errorCorrection: QRErrorCorrection) -> QRMatrix {
        var copy = self
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] {
                let invert: Bool
                switch mask {
                case 0: invert = (x + y) % 2 == 0
                case 1: invert = y % 2 == 0
                case 2: invert = x % 3 == 0
                case 3: invert = (x + y) % 3 == 0
                case 4: invert = (x / 3 + y / 2) % 2 == 0
                case 5: invert = x * y % 2 + x * y % 3 == 0
                case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0
                default: invert = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if invert { copy.modules[y][x].toggle() }
            }
        }
        copy.drawFormatBits(errorCorrection: errorCorrection, mask: mask)
        return copy
    }

    /// A finder-like run (dark, light, three dark, light, dark) with four light modules after it, and before it, as
    /// 11 bits, the first module the highest.
    private static let finderThenQuiet = 0b101_1101_0000
    private static let quietThenFinder = 0b000_0101_1101

    /// The penalty of ISO/IEC 18004 §8.8.2: runs of five or more, 2×2 blocks, finder-like patterns, dark/light balance.
    /// One pass over each row and column, without copying them.
    var penalty: Int {
        var score = 0
        for horizontal in [true, false] {
            for line in 0..<size {
                var runColor = false
                var runLength = 0
                var window = 0
                for position in 0..<size {
                    let module = horizontal ? modules[line][position] : modules[position][line]
                    if position > 0, module == runColor {
                        runLength += 1
                    } else {
                        if runLength >= 5 { score += runLength - 2 }
                        runColor = module
                        runLength = 1
                    }
                    window = (window << 1 | (module ? 1 : 0)) & 0b111_1111_1111
                    if position >= 10, window == Self.finderThenQuiet || window == Self.quietThenFinder { score += 40 }
                }
                if runLength >= 5 { score += runLength - 2 }
            }
        }
        var dark = 0
        for y in 0..<size {
            for x in 0..<size {
                let color = modules[y][x]
                if color { dark += 1 }
                if y < size - 1, x < size - 1, modules[y][x + 1] == color, modules[y + 1][x] == color, modules[y + 1][x + 1] == color { score += 3 }
            }
        }
        let percent = dark * 100 / (size * size)
        score += abs(percent - 50) / 5 * 10
        return score
    }
}
