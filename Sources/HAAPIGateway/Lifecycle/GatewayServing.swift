import Foundation
import Logging
import ServiceLifecycle

/// `serve` once its configuration is loaded and its upstream reached: the gateway's application with reloads on SIGHUP
/// (``ReloadOnHangupService``), the drain (``GatewayDrainService``) and the stop deadline, until SIGTERM or SIGINT.
public enum GatewayServing {
    /// Runs the gateway until it is stopped.
    /// - Parameters:
    ///   - configuration: The configuration loaded: its upstream is the demo's settings when the embedded demo upstream runs.
    ///   - resolved: The same with the upstream to use (the embedded demo server's, when it runs).
    ///   - flags: The file and flags a reload loads the configuration from again.
    ///   - demoOutbox: The embedded demo upstream's outbox, when it runs.
    ///   - storageChoice: Where the gateway keeps its state.
    ///   - write: Writes the banner for people (standard output).
    /// - Throws: What stops it from starting.
    public static func run(
        configuration: GatewayConfiguration,
        resolved: GatewayConfiguration,
        flags: ConfigurationFlags,
        demoOutbox: (@Sendable () -> [UInt8])?,
        storageChoice: GatewayStorageChoice,
        logger: Logger,
        write: @escaping @Sendable (String) -> Void
    ) async throws {
        let embeddedDemo: DemoUpstreamSettings? = if case .demo(let settings) = configuration.upstream { settings } else { nil }
        let (discardsTokens, logging, server) = (configuration.callbacks.isEmpty, configuration.logging, configuration.server)
        let drain = GatewayDrain()
        let reloader = GatewayReloader()
        let stopDeadline = StopDeadline(seconds: server.stopSeconds, logger: logger)
        // The deadline runs from the signal (drain and stop), on a thread of its own, as login's does.
        let stopSignals = StopSignalWatch(stopDeadline, allowing: .seconds(server.drainSeconds))
        defer { withExtendedLifetime(stopSignals) {} }
        let application = try await Gateway.makeApplication(
            configuration: resolved,
            logger: logger,
            onRunning: { url in
                ServeAnnouncement.announce(url, embeddedDemo: embeddedDemo != nil, logging: logging, logger: logger, write: write)
                if discardsTokens { logger.warning(ServeAnnouncement.noCallbackWarning) }
            },
            drain: drain,
            reloader: reloader,
            stopDeadline: stopDeadline,
            embeddedDemo: embeddedDemo,
            demoOutbox: demoOutbox,
            storageChoice: storageChoice
        )
        // The drain service comes after the application, so SIGTERM reaches it first: readiness goes down, new sign-ins
        // are refused, and only after server.drainSeconds does the listener stop.
        let services: [any Service] = [
            ReloadOnHangupService(flags: flags, reloader: reloader, logger: logger), application,
            GatewayDrainService(drain: drain, seconds: server.drainSeconds, stopDeadline: stopDeadline, logger: logger),
        ]
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
