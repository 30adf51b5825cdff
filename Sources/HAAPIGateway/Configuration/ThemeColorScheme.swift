/// Whether pages follow the device's light or dark appearance, or keep one.
public enum ThemeColorScheme: String, Sendable, CaseIterable {
    /// Light or dark as the device prefers (`prefers-color-scheme`).
    case auto
    /// Always the light palette.
    case light
    /// Always the dark palette.
    case dark
}
