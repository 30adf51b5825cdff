/// How pages look: the product name beside every page title, an optional logo, and the colours, served as CSS custom
/// properties in `/assets/theme.css` (so a deployment restyles pages without touching templates).
public struct ThemeSettings: Sendable, Equatable {
    /// Shown above every page's heading and after the page title in the browser tab; empty for none.
    public var productName: String
    /// The logo shown above every page's heading, if any.
    public var logo: ThemeLogo?
    /// Light, dark, or whichever the device prefers.
    public var colorScheme: ThemeColorScheme
    /// The light appearance.
    public var light: ThemePalette
    /// The dark appearance.
    public var dark: ThemePalette

    /// Creates theme settings; the defaults are the shipped look.
    public init(
        productName: String = "",
        logo: ThemeLogo? = nil,
        colorScheme: ThemeColorScheme = .auto,
        light: ThemePalette = .light,
        dark: ThemePalette = .dark
    ) {
        self.productName = productName
        self.logo = logo
        self.colorScheme = colorScheme
        self.light = light
        self.dark = dark
    }
}
