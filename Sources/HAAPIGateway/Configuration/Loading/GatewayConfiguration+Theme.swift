import Foundation

extension GatewayConfiguration {
    /// The `theme` section: product name, logo file, colour scheme and the two palettes, each colour a hex value and each
    /// palette readable (WCAG 2.1 AA contrast).
    static func resolveTheme(_ reader: inout ConfigurationReader) -> ThemeSettings {
        var theme = ThemeSettings()
        if let name = reader.string("theme.productName") {
            if name.count > 80 || name.contains(where: { $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
                reader.problem("theme.productName", "must be one line of at most 80 characters")
            } else {
                theme.productName = name.trimmingCharacters(in: .whitespaces)
            }
        }
        if let url = reader.filePath("theme.logoFile") {
            let fileExtension = url.pathExtension.lowercased()
            if let contentType = ThemeLogo.contentTypes[fileExtension] {
                if let bytes = FileManager.default.contents(atPath: url.path) {
                    if bytes.count > ThemeLogo.maximumBytes {
                        reader.problem("theme.logoFile", "\(url.path) has \(bytes.count) bytes; at most \(ThemeLogo.maximumBytes) are served")
                    } else {
                        theme.logo = ThemeLogo(bytes: bytes, contentType: contentType)
                    }
                } else {
                    reader.problem("theme.logoFile", FileAccess.cannotRead(url.path))
                }
            } else {
                reader.problem("theme.logoFile", "must be an image file ending .\(ThemeLogo.contentTypes.keys.sorted().joined(separator: ", ."))")
            }
        }
        if let scheme = reader.string("theme.colorScheme") {
            if let parsed = ThemeColorScheme(rawValue: scheme.lowercased()) {
                theme.colorScheme = parsed
            } else {
                reader.problem("theme.colorScheme", "must be auto, light or dark; got '\(scheme)'")
            }
        }
        theme.light = palette(&reader, prefix: "theme.", defaults: .light)
        theme.dark = palette(&reader, prefix: "theme.dark", defaults: .dark)
        // Only the palettes in use must be readable.
        if theme.colorScheme != .dark { contrastProblems(theme.light, prefix: "theme.", into: &reader) }
        if theme.colorScheme != .light { contrastProblems(theme.dark, prefix: "theme.dark", into: &reader) }
        return theme
    }

    private static func palette(_ reader: inout ConfigurationReader, prefix: String, defaults: ThemePalette) -> ThemePalette {
        func color(_ name: String, _ fallback: String) -> String {
            let key = prefix + (prefix.hasSuffix(".") ? name : name.prefix(1).uppercased() + name.dropFirst())
            guard let value = reader.string(key) else { return fallback }
            guard ThemeContrast.isHexColor(value) else {
                reader.problem(key, "must be a hex colour such as #1a56c4 or #fff; got '\(value)'")
                return fallback
            }
            return value.lowercased()
        }
        return ThemePalette(
            text: color("textColor", defaults.text),
            background: color("backgroundColor", defaults.background),
            accent: color("accentColor", defaults.accent),
            error: color("errorColor", defaults.error),
            border: color("borderColor", defaults.border)
        )
    }

    private static func contrastProblems(_ palette: ThemePalette, prefix: String, into reader: inout ConfigurationReader) {
        for problem in ThemeContrast.problems(palette) {
            let key = prefix + (prefix.hasSuffix(".") ? problem.name : problem.name.prefix(1).uppercased() + problem.name.dropFirst())
            reader.problem(key, problem.message)
        }
    }
}
