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

    /// A finder-like run (dark, light, three dark, light, dark) with four light modules after it, and before it.
    private static let finderThenQuiet = [true, false, true, true, true, false, true, false, false, false, false]
    private static let quietThenFinder = [false, false, false, false, true, false, true, true, true, false, true]

    /// The penalty of ISO/IEC 18004 §8.8.2: runs of five or more, 2×2 blocks, finder-like patterns, dark/light balance.
    var penalty: Int {
        var score = 0
        let columns = (0..<size).map { x in (0..<size).map { modules[$0][x] } }
        for line in modules + columns {
            var runColor = line[0]
            var runLength = 1
            for module in line.dropFirst() {
                if module == runColor {
                    runLength += 1
                } else {
                    if runLength >= 5 { score += runLength - 2 }
                    runColor = module
                    runLength = 1
                }
            }
            if runLength >= 5 { score += runLength - 2 }
            for start in 0...(size - 11) {
                let window = line[start..<start + 11]
                if window.elementsEqual(Self.finderThenQuiet) || window.elementsEqual(Self.quietThenFinder) { score += 40 }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = modules[y][x]
                if modules[y][x + 1] == color, modules[y + 1][x] == color, modules[y + 1][x + 1] == color { score += 3 }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let percent = dark * 100 / (size * size)
        score += abs(percent - 50) / 5 * 10
        return score
    }
}
