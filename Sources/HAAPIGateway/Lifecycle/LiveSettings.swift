import Foundation
import Synchronization

/// The configuration, the page renderer and the theme stylesheet in effect, read by every request and replaced whole by a reload.
///
/// A request reads them once (``RequestSettings``), so that a reload during the request cannot mix two configurations;
/// the stores, limiters and the callback dispatcher read their part at each operation (``source(_:)``). This is the one
/// place a reload changes: it replaces the configuration here and pushes nothing to anyone.
final class LiveSettings: Sendable {
    /// One configuration with what is made from it.
    struct Snapshot: Sendable {
        let configuration: GatewayConfiguration
        let renderer: PageRenderer
        /// `/assets/theme.css`, made once per configuration.
        let themeStylesheet: Data
    }

    private let current: Mutex<Snapshot>

    init(configuration: GatewayConfiguration, templates: TemplateLibrary) {
        current = Mutex(Self.snapshot(configuration, templates))
    }

    /// The settings in effect now, all from one configuration.
    var snapshot: Snapshot { current.withLock { $0 } }
    var configuration: GatewayConfiguration { snapshot.configuration }

    /// One part of the configuration in effect, read at each use by a long-lived component (``SettingsSource``).
    func source<Value: Sendable>(_ part: any KeyPath<GatewayConfiguration, Value> & Sendable) -> SettingsSource<Value> {
        SettingsSource { self.current.withLock { $0.configuration[keyPath: part] } }
    }

    func replace(configuration: GatewayConfiguration, templates: TemplateLibrary) {
        let snapshot = Self.snapshot(configuration, templates)
        current.withLock { $0 = snapshot }
    }

    private static func snapshot(_ configuration: GatewayConfiguration, _ templates: TemplateLibrary) -> Snapshot {
        Snapshot(
            configuration: configuration,
            renderer: renderer(configuration, templates),
            themeStylesheet: themeStylesheet(configuration)
        )
    }

    private static func themeStylesheet(_ configuration: GatewayConfiguration) -> Data {
        Data(ThemeStylesheet.css(for: configuration.theme).utf8)
    }

    private static func renderer(_ configuration: GatewayConfiguration, _ templates: TemplateLibrary) -> PageRenderer {
        PageRenderer(
            templates: templates,
            defaultPollSeconds: configuration.polling.defaultIntervalSeconds,
            completionURL: configuration.completion.redirectURL,
            kiosk: configuration.kiosk,
            theme: configuration.theme
        )
    }
}
