/// The colours of one appearance, as `#rgb` or `#rrggbb` (the only forms accepted, so a value can never carry other
/// CSS into the stylesheet).
public struct ThemePalette: Sendable, Equatable {
    /// Body text.
    public var text: String
    /// The page background (also the text colour of buttons).
    public var background: String
    /// Buttons, links and the focus ring.
    public var accent: String
    /// Error messages.
    public var error: String
    /// Field borders.
    public var border: String

    /// Creates a palette.
    public init(text: String, background: String, accent: String, error: String, border: String) {
        self.text = text
        self.background = background
        self.accent = accent
        self.error = error
        self.border = border
    }

    /// The shipped light palette.
    public static let light = ThemePalette(text: "#1b1b1f", background: "#ffffff", accent: "#1a56c4", error: "#b3261e", border: "#8a8a94")
    /// The shipped dark palette.
    public static let dark = ThemePalette(text: "#ececf1", background: "#16161a", accent: "#8ab4ff", error: "#ffb4ab", border: "#6c6c75")
}
