import Synchronization

/// The configuration and the page renderer in effect, read by every request and replaced whole by a reload.
final class LiveSettings: Sendable {
    private let current: Mutex<(configuration: GatewayConfiguration, renderer: PageRenderer)>

    init(configuration: GatewayConfiguration, templates: TemplateLibrary) {
        current = Mutex((configuration, Self.renderer(configuration, templates)))
    }

    var configuration: GatewayConfiguration { current.withLock { $0.configuration } }
    var renderer: PageRenderer { current.withLock { $0.renderer } }

    func replace(configuration: GatewayConfiguration, templates: TemplateLibrary) {
        let renderer = Self.renderer(configuration, templates)
        current.withLock { $0 = (configuration, renderer) }
    }

    private static func renderer(_ configuration: GatewayConfiguration, _ templates: TemplateLibrary) -> PageRenderer {
        PageRenderer(
            templates: templates, defaultPollSeconds: configuration.polling.defaultIntervalSeconds, completionURL: configuration.completion.redirectURL,
            kiosk: configuration.kiosk, theme: configuration.theme)
    }
}
