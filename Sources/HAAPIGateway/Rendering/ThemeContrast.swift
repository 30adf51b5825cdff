import Foundation

/// WCAG 2 contrast ratios of theme colours, so that a configured palette that people could not read is refused at
/// startup rather than found by them.
enum ThemeContrast {
    /// Normal-size text needs at least 4.5:1 (WCAG 2.1 AA, 1.4.3).
    static let minimumTextRatio = 4.5
    /// Borders of fields and the focus ring need at least 3:1 (WCAG 2.1 AA, 1.4.11).
    static let minimumGraphicsRatio = 3.0

    /// Whether `text` is `#rgb` or `#rrggbb`.
    static func isHexColor(_ text: String) -> Bool {
        guard text.first == "#", text.count == 4 || text.count == 7 else { return false }
        return text.dropFirst().allSatisfy(\.isHexDigit)
    }

    /// The contrast ratio of two hex colours (1 to 21), or nil when either is not a hex colour.
    static func ratio(_ first: String, _ second: String) -> Double? {
        guard let a = luminance(first), let b = luminance(second) else { return nil }
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// What is unreadable in a palette: the colour to change (`\.text`, `\.accent`, ...) and why.
    static func problems(_ palette: ThemePalette) -> [(color: KeyPath<ThemePalette, String>, message: String)] {
        let pairs: [(String, String, KeyPath<ThemePalette, String>, Double, String)] = [
            (palette.text, palette.background, \.text, minimumTextRatio, "text on the background"),
            (palette.background, palette.accent, \.accent, minimumTextRatio, "button text (the background colour) on the accent colour"),
            (palette.accent, palette.background, \.accent, minimumTextRatio, "links on the background"),
            (palette.error, palette.background, \.error, minimumTextRatio, "error messages on the background"),
            (palette.border, palette.background, \.border, minimumGraphicsRatio, "field borders on the background"),
        ]
        return pairs.compactMap { foreground, background, color, minimum, what in
            guard let ratio = ratio(foreground, background), ratio < minimum else { return nil }
            let shown = (ratio * 10).rounded(.down) / 10
            return (color, "\(what) has a contrast of \(shown):1; at least \(minimum):1 is needed (WCAG 2.1 AA)")
        }
    }

    private static func luminance(_ hex: String) -> Double? {
        guard isHexColor(hex) else { return nil }
        var digits = String(hex.dropFirst())
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard let value = UInt32(digits, radix: 16) else { return nil }
        let channels = [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff].map { channel -> Double in
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

}
