import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// Theming from configuration: product name, logo and colours as CSS custom properties in `/assets/theme.css`,
/// refused with every problem when unreadable or unsafe.
@Suite("Theme")
struct ThemeTests {
    private func problems(_ environment: [String: String]) -> [String] {
        do {
            _ = try GatewayConfiguration.load(file: nil, environment: environment)
            return []
        } catch {
            return error.problems
        }
    }

    @Test("the shipped palettes are readable (WCAG AA) and become theme.css, dark under prefers-color-scheme")
    func shippedPalettes() throws {
        #expect(ThemeContrast.problems(.light).isEmpty)
        #expect(ThemeContrast.problems(.dark).isEmpty)
        let css = ThemeStylesheet.css(for: ThemeSettings())
        #expect(css.contains("--accent: #1a56c4;"))
        #expect(css.contains("@media (prefers-color-scheme: dark) { :root { --fg: #ececf1;"))
        let light = ThemeStylesheet.css(for: ThemeSettings(colorScheme: .light))
        #expect(light.contains("color-scheme: light;") && !light.contains("prefers-color-scheme") && !light.contains("#16161a"))
        let dark = ThemeStylesheet.css(for: ThemeSettings(colorScheme: .dark))
        #expect(dark.contains("color-scheme: dark;") && dark.contains("--bg: #16161a;") && !dark.contains("#ffffff"))
    }

    @Test("contrast ratios match WCAG's examples: black on white 21:1, #777 on white 4.48:1")
    func contrastRatios() throws {
        #expect(abs(try #require(ThemeContrast.ratio("#000", "#ffffff")) - 21) < 0.01)
        #expect(abs(try #require(ThemeContrast.ratio("#777777", "#fff")) - 4.48) < 0.01)
        #expect(ThemeContrast.ratio("red", "#fff") == nil)
    }

    @Test("colours from the environment; every bad value is listed at once, none reaches the stylesheet")
    func badValuesAreListed() throws {
        let configuration = try GatewayConfiguration.load(
            file: nil,
            environment: [
                "HAAPI_GATEWAY_THEME_PRODUCT_NAME": "Acme Login", "HAAPI_GATEWAY_THEME_ACCENT_COLOR": "#0B5CAD",
                "HAAPI_GATEWAY_THEME_COLOR_SCHEME": "light",
            ]
        )
        #expect(configuration.theme.productName == "Acme Login")
        #expect(configuration.theme.light.accent == "#0b5cad")
        #expect(configuration.theme.colorScheme == .light)

        let listed = problems([
            "HAAPI_GATEWAY_THEME_ACCENT_COLOR": "#fff; } body { display: none",
            "HAAPI_GATEWAY_THEME_DARK_TEXT_COLOR": "#222222",
            "HAAPI_GATEWAY_THEME_COLOR_SCHEME": "sepia",
            "HAAPI_GATEWAY_THEME_PRODUCT_NAME": "two\nlines",
            "HAAPI_GATEWAY_THEME_LOGO_FILE": "/no/such/logo.svg",
        ])
        #expect(listed.contains { $0.contains("theme.accentColor") && $0.contains("hex colour") }, "\(listed)")
        #expect(listed.contains { $0.contains("theme.darkTextColor") && $0.contains("contrast") }, "\(listed)")
        #expect(listed.contains { $0.contains("theme.colorScheme") }, "\(listed)")
        #expect(listed.contains { $0.contains("theme.productName") }, "\(listed)")
        #expect(listed.contains { $0.contains("theme.logoFile") && $0.contains("cannot read") }, "\(listed)")
    }

    @Test("a palette that is not in use is not checked; one in use must be readable")
    func onlyPalettesInUseAreChecked() {
        #expect(problems(["HAAPI_GATEWAY_THEME_COLOR_SCHEME": "light", "HAAPI_GATEWAY_THEME_DARK_TEXT_COLOR": "#222222"]).isEmpty)
        #expect(!problems(["HAAPI_GATEWAY_THEME_COLOR_SCHEME": "dark", "HAAPI_GATEWAY_THEME_DARK_TEXT_COLOR": "#222222"]).isEmpty)
        #expect(!problems(["HAAPI_GATEWAY_THEME_BORDER_COLOR": "#eeeeee"]).isEmpty, "field borders need 3:1")
    }

    @Test("a logo must be an image of at most 256 KiB")
    func logoFiles() throws {
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("logo.txt")
        try Data("x".utf8).write(to: text)
        let huge = directory.appendingPathComponent("logo.png")
        try Data(count: ThemeLogo.maximumBytes + 1).write(to: huge)
        #expect(problems(["HAAPI_GATEWAY_THEME_LOGO_FILE": text.path]).contains { $0.contains("image file") })
        #expect(problems(["HAAPI_GATEWAY_THEME_LOGO_FILE": huge.path]).contains { $0.contains("at most") })
    }

    @Test("pages show the product name and logo; /assets serves theme.css, the logo, and nothing it does not know")
    func pagesAndAssets() async throws {
        let logo = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#.utf8)
        try await GatewayHarness.withGateway(configure: {
            $0.theme = ThemeSettings(
                productName: "Acme <Login>",
                logo: ThemeLogo(bytes: logo, contentType: "image/svg+xml"),
                light: ThemePalette(text: "#111111", background: "#fafafa", accent: "#0b5cad", error: "#a00000", border: "#767676")
            )
        }) { browser, _, _ in
            let page = try await browser.get("/")
            #expect(page.html.contains("<title>Select Authentication Method – Acme &lt;Login&gt;</title>"))
            #expect(page.html.contains(#"<img src="/assets/logo" alt="Acme &lt;Login&gt;">"#))
            #expect(page.html.contains(#"<link rel="stylesheet" href="/assets/theme.css">"#))
            let theme = try await browser.get("/assets/theme.css")
            #expect(theme.status == 200 && theme.header("Content-Type") == "text/css; charset=utf-8")
            #expect(theme.html.contains("--accent: #0b5cad;"))
            let served = try await browser.get("/assets/logo")
            #expect(served.status == 200 && served.header("Content-Type") == "image/svg+xml" && served.html == String(decoding: logo, as: UTF8.self))
            #expect(served.header("Content-Security-Policy")?.contains("default-src 'none'") == true, "an SVG logo runs no script")
            for name in ["../Package.swift", "..%2FPackage.swift", "header.mustache", "messages", "GATEWAY.CSS", "gateway.css%00.js", ".hidden.css"] {
                #expect(try await browser.get("/assets/" + name).status == 404, "\(name)")
            }
        }
    }

    @Test("without a product name or logo there is no brand line and the title is the step's alone")
    func noBrandByDefault() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let page = try await browser.get("/")
            #expect(page.html.contains("<title>Select Authentication Method</title>"))
            #expect(!page.html.contains("class=\"brand\""))
            #expect(try await browser.get("/assets/logo").status == 404)
        }
    }

    @Test("asset names: lowercase letters, digits, dots and hyphens with a servable extension")
    func assetNames() {
        #expect(StaticAsset.contentType(forName: "gateway.css") == "text/css; charset=utf-8")
        #expect(StaticAsset.contentType(forName: "external-browser.js") == "text/javascript; charset=utf-8")
        for name in ["../x.css", "x/y.css", ".x.css", "X.css", "x..css", "x.mustache", "x", "x.css\u{0}"] {
            #expect(StaticAsset.contentType(forName: name) == nil, "\(name)")
        }
    }
}
