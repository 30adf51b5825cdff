import Foundation
import Logging
import Synchronization

/// Applies a new configuration to a running gateway (on SIGHUP): templates and message catalogues, callbacks and their
/// retries, completion, polling, kiosk timings and session settings take effect at once; a change to a setting that
/// needs a new listener, upstream, route or logger (server, upstream, metrics, kiosk.enabled, logging) is reported and
/// waits for a restart. A configuration whose
/// templates do not load is refused and the running one stays.
public final class GatewayReloader: Sendable {
    /// What a reload did.
    public struct Outcome: Sendable {
        /// Whether the new configuration is in effect (false: it was refused and the old one stays).
        public let applied: Bool
        /// Why it was refused.
        public let problems: [String]
        /// Settings that changed but take effect only after a restart.
        public let needsRestart: [String]
    }

    private let state = Mutex<ReloadTarget?>(nil)

    /// A reloader not yet attached to a gateway (``Gateway/makeApplication(configuration:logger:onRunning:onOutcome:drain:metrics:reloader:now:)``
    /// attaches it).
    public init() {}

    func attach(_ target: ReloadTarget) { state.withLock { $0 = target } }

    /// Applies `configuration` to the running gateway.
    public func reload(_ configuration: GatewayConfiguration) async -> Outcome {
        guard let target = state.withLock({ $0 }) else { return Outcome(applied: false, problems: ["the gateway is not running"], needsRestart: []) }
        return await target.apply(configuration)
    }
}

/// The parts of a running gateway a reload replaces, and how.
struct ReloadTarget: Sendable {
    let live: LiveSettings
    let store: MemorySessionStore<SignInSession>
    let dispatcher: CallbackDispatcher
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
        if old.server.host != new.server.host || old.server.port != new.server.port || old.server.publicBaseURL != new.server.publicBaseURL
            || old.server.maximumRequestBodyBytes != new.server.maximumRequestBodyBytes
        {
            needsRestart.append("server")
        }
        if old.upstream.summaryLine != new.upstream.summaryLine { needsRestart.append("upstream") }
        if old.metrics.enabled != new.metrics.enabled || old.metrics.host != new.metrics.host || old.metrics.port != new.metrics.port {
            needsRestart.append("metrics")
        }
        if old.kiosk.enabled != new.kiosk.enabled { needsRestart.append("kiosk.enabled") }
        if old.logging.level != new.logging.level || old.logging.format != new.logging.format { needsRestart.append("logging") }
        var applied = new
        // What needs a restart keeps its running value, so that the configuration in effect is what actually runs.
        applied.server = old.server
        applied.upstream = old.upstream
        applied.metrics = old.metrics
        applied.pairing = old.pairing
        applied.kiosk.enabled = old.kiosk.enabled
        applied.logging = old.logging
        live.replace(configuration: applied, templates: templates)
        await store.update(settings: applied.sessions)
        await dispatcher.replace(configurations: applied.callbacks, settings: applied.callbackDelivery)
        for section in needsRestart { logger.warning("reload: changed settings take effect after a restart", metadata: ["section": "\(section)"]) }
        logger.notice("configuration reloaded")
        return .init(applied: true, problems: [], needsRestart: needsRestart)
    }
}

extension UpstreamSettings {
    /// A comparable, secret-free description (equal when nothing that matters changed).
    var summaryLine: String {
        switch self {
        case .demo(let demo): "demo \(demo.requireDPoPNonce) \(demo.scopes) \(demo.timeoutSeconds)"
        case .haapi(let client): "\(client) \(client.authorizationParameters.queryItems.map { "\($0.0)=\($0.1)" }) \(client.requestTimeout)"
        }
    }
}
