/// `/assets/theme.css`: the theme's colours as the custom properties `gateway.css` uses (`--fg`, `--bg`, `--accent`,
/// `--error`, `--border`), with the dark palette under `prefers-color-scheme: dark` when the scheme is `auto`.
enum ThemeStylesheet {
    static func css(for theme: ThemeSettings) -> String {
        switch theme.colorScheme {
        case .auto:
            return
                ":root { color-scheme: light dark; \(properties(theme.light)) }\n@media (prefers-color-scheme: dark) { :root { \(properties(theme.dark)) } }\n"
        case .light:
            return ":root { color-scheme: light; \(properties(theme.light)) }\n"
        case .dark:
            return ":root { color-scheme: dark; \(properties(theme.dark)) }\n"
        }
    }

    private static func properties(_ palette: ThemePalette) -> String {
        "--fg: \(palette.text); --bg: \(palette.background); --accent: \(palette.accent); --error: \(palette.error); --border: \(palette.border);"
    }
}
