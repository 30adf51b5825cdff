/// A QR code (ISO/IEC 18004) of up to 271 bytes: byte mode, versions 1 to 10, error correction L or M, mask chosen by
/// the standard's penalty rules. Used for the `login` link in the terminal.
public struct QRCode: Sendable {
    /// Why a text cannot be encoded.
    public struct TooLong: Error, Sendable, CustomStringConvertible {
        /// The text's length in bytes.
        public let byteCount: Int
        public var description: String { "\(byteCount) bytes do not fit a QR code of version 10 or lower" }
    }

    /// The version (1 to 10); the symbol is 17 + 4 × version modules wide.
    public let version: Int
    /// The mask pattern used (0 to 7).
    public let mask: Int
    /// The modules by row, then column; `true` is dark.
    public let modules: [[Bool]]

    /// The width and height in modules (without the quiet zone).
    public var size: Int { modules.count }

    /// Encodes `text` (as UTF-8) in the smallest version that fits.
    /// - Parameters:
    ///   - text: The text.
    ///   - errorCorrection: The level (default low: the code is shown on a screen).
    ///   - mask: A fixed mask pattern (0 to 7), or `nil` for the one with the lowest penalty.
    /// - Throws: ``TooLong`` past version 10.
    public static func encode(_ text: String, errorCorrection: QRErrorCorrection = .low, mask: Int? = nil) throws(TooLong) -> QRCode {
        let bytes = Array(text.utf8)
        guard let version = (1...10).first(where: { 4 + ($0 < 10 ? 8 : 16) + 8 * bytes.count <= 8 * errorCorrection.dataCapacity(version: $0) })
        else {
            throw TooLong(byteCount: bytes.count)
        }
        let codewords = QRCodewords.make(bytes: bytes, version: version, errorCorrection: errorCorrection)
        var matrix = QRMatrix(version: version)
        matrix.drawFunctionPatterns()
        matrix.drawCodewords(codewords)
        let chosen: (mask: Int, matrix: QRMatrix)
        if let mask {
            chosen = (mask, matrix.masked(mask, errorCorrection: errorCorrection))
        } else {
            // Each mask applied and scored once; the first with the lowest penalty is kept as it is.
            let candidates = (0..<8).map { (mask: $0, matrix: matrix.masked($0, errorCorrection: errorCorrection)) }
            let penalties = candidates.map(\.matrix.penalty)
            chosen = candidates[penalties.indices.min { penalties[$0] < penalties[$1] }!]
        }
        return QRCode(version: version, mask: chosen.mask, modules: chosen.matrix.modules)
    }
}
