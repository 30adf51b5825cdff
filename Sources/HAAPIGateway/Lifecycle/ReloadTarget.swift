import HAAPI
import Logging

/// What a reload replaces in a running gateway: the configuration in effect (``LiveSettings``), which every request
/// (``RequestSettings``) and every store, limiter and the callback dispatcher (``SettingsSource``) read from, and the
/// upstream client's credentials. Nothing else is handed the new settings.
struct ReloadTarget: Sendable {
    let live: LiveSettings
    let upstream: UpstreamConnection
    /// With the embedded demo upstream, the settings it was started from: the running configuration holds the demo
    /// server's address and client instead, which no configuration names. A reload never replaces the demo (its
    /// `upstream` and `demo` settings wait for a restart; a rotated client secret applies to a real upstream only).
    let embeddedDemo: DemoUpstreamSettings?
    let logger: Logger

    func apply(_ new: GatewayConfiguration) async -> GatewayReloader.Outcome {
        let templates: TemplateLibrary
        do {
            templates = try TemplateLibrary(settings: new.templates)
        } catch {
            logger.error("reload refused; the running configuration stays", metadata: ["problem": "\(error.message)"])
            return .init(applied: false, problems: ["templates: \(error.message)"], needsRestart: [])
        }
        let old = live.configuration
        // Each setting says whether a change waits for a restart (``ConfigurationKey/reload``); those keep their running
        // value, so that the configuration in effect is what actually runs. A setting is compared as configured: the
        // embedded demo's are compared with the settings it was started from, not with the demo server's address.
        var running = old
        if let embeddedDemo { running.upstream = .demo(embeddedDemo) }
        var needsRestart: [String] = []
        var applied = new
        for key in ConfigurationKey.all {
            guard case .afterRestart(let keep) = key.reload else { continue }
            if key.value(running) != key.value(new) { needsRestart.append(key.path) }
            keep(&applied, old)
        }
        // Not a setting: `login` mode is chosen by the command that started the gateway.
        applied.pairing = old.pairing
        // A client secret (or key) rotated on disk takes effect at once, for sign-ins under way too, unless a setting
        // of the upstream's that waits for a restart changed with it.
        if !needsRestart.contains(where: { $0.hasPrefix("upstream.") || $0.hasPrefix("demo.") }), case .haapi(let running) = old.upstream,
            case .haapi(let wanted) = new.upstream, running.clientAuthentication != wanted.clientAuthentication
        {
            do throws(HAAPIError) {
                try upstream.replaceClientAuthentication(wanted.clientAuthentication)
                applied.upstream = new.upstream
                logger.notice("reload: the upstream client's credentials were replaced")
            } catch {
                logger.error(
                    "reload: the upstream client's new credentials were refused; the running ones stay",
                    metadata: ["problem": "\(error.message)"]
                )
            }
        }
        live.replace(configuration: applied, templates: templates)
        for key in needsRestart { logger.warning("reload: a changed setting takes effect after a restart", metadata: ["key": "\(key)"]) }
        logger.notice("configuration reloaded")
        return .init(applied: true, problems: [], needsRestart: needsRestart)
    }
}
