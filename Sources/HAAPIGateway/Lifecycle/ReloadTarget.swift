import HAAPI
import Logging

/// The parts of a running gateway a reload replaces, and how.
struct ReloadTarget: Sendable {
    let live: LiveSettings
    let store: any SessionStore<SignInSession>
    let limiter: FailedPostLimiter
    let newSessions: any NewSessionBudget
    let upstream: UpstreamConnection
    let dispatcher: CallbackDispatcher
    let devices: any DeviceAuthorizationStore
    let codeAttempts: UserCodeAttemptLimiter
    let startLinks: StartLinkVerifier
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
        var needsRestart: [String] = []
        // Every server setting is the listener's or read once at start (the drain's length, the health routes).
        if old.server != new.server { needsRestart.append("server") }
        if old.upstream.summaryLine != new.upstream.summaryLine { needsRestart.append("upstream") }
        if old.metrics.enabled != new.metrics.enabled || old.metrics.host != new.metrics.host || old.metrics.port != new.metrics.port {
            needsRestart.append("metrics")
        }
        if old.kiosk.enabled != new.kiosk.enabled { needsRestart.append("kiosk.enabled") }
        if old.devices.enabled != new.devices.enabled { needsRestart.append("devices.enabled") }
        if old.startLinks.enabled != new.startLinks.enabled { needsRestart.append("startLinks.secretFile") }
        if old.devices.refreshTokenKeys != new.devices.refreshTokenKeys {
            needsRestart.append("devices.refreshTokenKeyFile")
        }
        if old.logging.level != new.logging.level || old.logging.format != new.logging.format { needsRestart.append("logging") }
        if old.sessions.store != new.sessions.store { needsRestart.append("sessions.store") }
        var applied = new
        // What needs a restart keeps its running value, so that the configuration in effect is what actually runs.
        applied.server = old.server
        applied.upstream = old.upstream
        // A client secret (or key) rotated on disk takes effect at once, for sign-ins under way too; another method
        // changes the upstream's summary and waits for a restart.
        if !needsRestart.contains("upstream"), case .haapi(let running) = old.upstream, case .haapi(let wanted) = new.upstream,
            running.clientAuthentication != wanted.clientAuthentication
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
        applied.metrics = old.metrics
        applied.pairing = old.pairing
        applied.kiosk.enabled = old.kiosk.enabled
        applied.devices.enabled = old.devices.enabled
        applied.devices.refreshTokenKeys = old.devices.refreshTokenKeys
        // Links are served or not from startup; a rotated secret (the previous one kept for a while) applies at once.
        if old.startLinks.enabled != new.startLinks.enabled { applied.startLinks = old.startLinks }
        applied.logging = old.logging
        applied.sessions.store = old.sessions.store
        live.replace(configuration: applied, templates: templates)
        await store.update(settings: applied.sessions)
        await limiter.update(settings: applied.sessions)
        await newSessions.update(settings: applied.sessions)
        await devices.update(settings: applied.devices)
        await codeAttempts.update(settings: applied.devices)
        await startLinks.update(settings: applied.startLinks)
        await dispatcher.replace(configurations: applied.callbacks, settings: applied.callbackDelivery)
        for section in needsRestart { logger.warning("reload: changed settings take effect after a restart", metadata: ["section": "\(section)"]) }
        logger.notice("configuration reloaded")
        return .init(applied: true, problems: [], needsRestart: needsRestart)
    }
}
