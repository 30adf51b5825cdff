import Foundation
import Synchronization

/// The configuration, the page renderer and the theme stylesheet in effect, read by every request and replaced whole by a reload.
final class LiveSettings: Sendable {
    private let current: Mutex<(configuration: GatewayConfiguration, renderer: PageRenderer, themeStylesheet: Data)>

    init(configuration: GatewayConfiguration, templates: TemplateLibrary) {
        current = Mutex((configuration, Self.renderer(configuration, templates), Self.themeStylesheet(configuration)))
    }

    var configuration: GatewayConfiguration { current.withLock { $0.configuration } }
    var renderer: PageRenderer { current.withLock { $0.renderer } }
    /// `/assets/theme.css`, made once per configuration.
    var themeStylesheet: Data { current.withLock { $0.themeStylesheet } }

    func replace(configuration: GatewayConfiguration, templates: TemplateLibrary) {
        let renderer = Self.renderer(configuration, templates)
        let themeStylesheet = Self.themeStylesheet(configuration)
        current.withLock { $0 = (configuration, renderer, themeStylesheet) }
    }

    private static func themeStylesheet(_ configuration: GatewayConfiguration) -> Data {
        Data(ThemeStylesheet.css(for: configuration.theme).utf8)
    }

    private static func renderer(_ configuration: GatewayConfiguration, _ templates: TemplateLibrary) -> PageRenderer {
        PageRenderer(
            templates: templates, defaultPollSeconds: configuration.polling.defaultIntervalSeconds, completionURL: configuration.completion.redirectURL,
            kiosk: configuration.kiosk, theme: configuration.theme)
    }
}
