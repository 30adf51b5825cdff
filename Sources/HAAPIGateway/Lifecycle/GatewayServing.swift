import Foundation
import Logging
import ServiceLifecycle
import Tracing

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
        let metrics = GatewayMetrics()
        let export = try TraceExport.make(configuration.tracing, metrics: metrics, logger: logger)
        let serving = { @Sendable () async throws in
            try await serve(
                configuration: configuration,
                resolved: resolved,
                flags: flags,
                demoOutbox: demoOutbox,
                storageChoice: storageChoice,
                metrics: metrics,
                traceExport: export,
                logger: logger,
                write: write
            )
        }
        guard let export else { return try await serving() }
        // Every span of the process is made by the export's tracer: the listener's tasks inherit it.
        try await withTracer(export.tracer) { try await serving() }
    }

    private static func serve(
        configuration: GatewayConfiguration,
        resolved: GatewayConfiguration,
        flags: ConfigurationFlags,
        demoOutbox: (@Sendable () -> [UInt8])?,
        storageChoice: GatewayStorageChoice,
        metrics: GatewayMetrics,
        traceExport: TraceExport?,
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
            metrics: metrics,
            reloader: reloader,
            stopDeadline: stopDeadline,
            embeddedDemo: embeddedDemo,
            demoOutbox: demoOutbox,
            storageChoice: storageChoice
        )
        // The drain service comes after the application, so SIGTERM reaches it first: readiness goes down, new sign-ins
        // are refused, and only after server.drainSeconds does the listener stop.
        // The trace export comes first, so that it stops last and sends the spans of the stop.
        let services: [any Service] =
            (traceExport.map { [$0.service] } ?? []) + [
                ReloadOnHangupService(flags: flags, reloader: reloader, logger: logger), application,
                GatewayDrainService(drain: drain, seconds: server.drainSeconds, stopDeadline: stopDeadline, logger: logger),
            ]
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
