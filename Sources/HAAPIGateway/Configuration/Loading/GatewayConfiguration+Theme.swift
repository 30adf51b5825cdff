import Foundation

extension GatewayConfiguration {
    /// The `theme` section: product name, logo file, colour scheme and the two palettes, each colour a hex value and each
    /// palette readable (WCAG 2.1 AA contrast).
    static func resolveTheme(_ reader: inout ConfigurationReader) -> ThemeSettings {
        var theme = ThemeSettings()
        if let name = reader.string(.themeProductName) {
            if name.count > 80 || name.contains(where: { $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
                reader.problem(.themeProductName, "must be one line of at most 80 characters")
            } else {
                theme.productName = name.trimmingCharacters(in: .whitespaces)
            }
        }
        if let url = reader.filePath(.themeLogoFile) {
            let fileExtension = url.pathExtension.lowercased()
            if let contentType = ThemeLogo.contentTypes[fileExtension] {
                if let bytes = FileManager.default.contents(atPath: url.path) {
                    if bytes.count > ThemeLogo.maximumBytes {
                        reader.problem(.themeLogoFile, "\(url.path) has \(bytes.count) bytes; at most \(ThemeLogo.maximumBytes) are served")
                    } else {
                        theme.logo = ThemeLogo(bytes: bytes, contentType: contentType)
                    }
                } else {
                    reader.problem(.themeLogoFile, FileAccess.cannotRead(url.path))
                }
            } else {
                reader.problem(.themeLogoFile, "must be an image file ending .\(ThemeLogo.contentTypes.keys.sorted().joined(separator: ", ."))")
            }
        }
        if let scheme = reader.string(.themeColorScheme) {
            if let parsed = ThemeColorScheme(rawValue: scheme.lowercased()) {
                theme.colorScheme = parsed
            } else {
                reader.problem(.themeColorScheme, "must be auto, light or dark; got '\(scheme)'")
            }
        }
        theme.light = palette(&reader, keys: ConfigurationKey.themeLightPalette, defaults: .light)
        theme.dark = palette(&reader, keys: ConfigurationKey.themeDarkPalette, defaults: .dark)
        // Only the palettes in use must be readable.
        if theme.colorScheme != .dark { contrastProblems(theme.light, keys: ConfigurationKey.themeLightPalette, into: &reader) }
        if theme.colorScheme != .light { contrastProblems(theme.dark, keys: ConfigurationKey.themeDarkPalette, into: &reader) }
        return theme
    }

    /// The palette `keys` set, each colour not set or not a hex colour (a problem) left at its default.
    private static func palette(_ reader: inout ConfigurationReader, keys: ConfigurationKey.PaletteKeys, defaults: ThemePalette) -> ThemePalette {
        var palette = defaults
        for (color, key) in keys {
            guard let value = reader.string(key) else { continue }
            guard ThemeContrast.isHexColor(value) else {
                reader.problem(key, "must be a hex colour such as #1a56c4 or #fff; got '\(value)'")
                continue
            }
            palette[keyPath: color] = value.lowercased()
        }
        return palette
    }

    /// A problem under the key of each colour of `palette` that people could not read (``ThemeContrast``).
    private static func contrastProblems(_ palette: ThemePalette, keys: ConfigurationKey.PaletteKeys, into reader: inout ConfigurationReader) {
        for problem in ThemeContrast.problems(palette) {
            guard let key = keys.first(where: { $0.color == problem.color })?.key else { continue }
            reader.problem(key, problem.message)
        }
    }
}
