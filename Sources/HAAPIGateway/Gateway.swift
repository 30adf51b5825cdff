import Foundation
import HAAPI
import Hummingbird
import Logging

/// The composition root of the gateway.
public enum Gateway {
    /// Builds the gateway application for a configuration whose upstream is a HAAPI server.
    ///
    /// Templates are loaded and checked, and the upstream's discovery is fetched, before this returns.
    /// - Parameters:
    ///   - configuration: The configuration; `upstream` must be `.haapi` (the executable resolves `.demo`).
    ///   - logger: The logger (no secret is ever logged).
    ///   - onRunning: Called with the gateway's base URL once it listens.
    ///   - onOutcome: Called with the outcome of every sign-in, after the sinks' first attempt (in-process consumers such as
    ///     the `login` command).
    ///   - drain: The drain state: while draining, readiness answers 503 and new sign-ins are refused (run a
    ///     ``GatewayDrainService`` after the application in the same `ServiceGroup` to drain on SIGTERM).
    ///   - metrics: Where the metrics are counted (served on their own listener when `metrics.enabled`).
    ///   - reloader: Attached to this gateway, it applies a new configuration while it runs (SIGHUP).
    ///   - now: The clock of session lifetimes and kiosk idle resets (tests inject one).
    ///   - stopDeadline: Bounds the stop after the drain (``StopDeadline``, started by ``GatewayDrainService``): the last
    ///     callback deliveries finish within it, and what is still under way at its end is named.
    ///   - upstreamFactsFile: Where what the gateway learns about its upstream (whether it issues token-bound
    ///     authorization codes, ``UpstreamFactKeeper``) is kept: `login` keeps it beside its token file. Nil: in the
    ///     database with `sessions.store: postgres`, else beside `callbacks.spoolFile` when it is set, else in memory only.
    ///   - embeddedDemo: The settings the embedded demo upstream was started from, when `configuration.upstream` is that
    ///     demo server (the executable starts it for a configuration without `upstream.baseURL`). A reload compares the
    ///     `upstream` and `demo` settings it reads with these, as a configuration names them, not with the demo server's
    ///     address and client, which no configuration names.
    ///   - demoOutbox: Only in front of the embedded demo upstream: its outbox document (the one-time codes and approval
    ///     links it "sent"), served at `/demo/outbox` (``DemoOutboxController``). Nil: no such route.
    ///   - storageChoice: Where the gateway keeps its state (``GatewayStorageChoice``): in memory by default;
    ///     `HAAPIGatewayPostgres`'s `.bySessionsStore` follows `sessions.store`, PostgreSQL included.
    /// - Throws: ``GatewayError`` for missing templates, a `.demo` upstream or a storage the choice cannot make;
    ///   ``ConfigurationError`` when the upstream answers but is wrong for the client (no discovery there, a refused client
    ///   secret). An upstream that cannot be reached is no failure: the gateway starts and keeps trying
    ///   (``UpstreamConnection``).
    public static func makeApplication(
        configuration: GatewayConfiguration,
        logger: Logger,
        onRunning: @escaping @Sendable (URL) async -> Void = { _ in },
        onOutcome: (@Sendable (CompletionOutcome) async -> Void)? = nil,
        drain: GatewayDrain = GatewayDrain(),
        metrics: GatewayMetrics = GatewayMetrics(),
        reloader: GatewayReloader = GatewayReloader(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        stopDeadline: StopDeadline? = nil,
        upstreamFactsFile: String? = nil,
        embeddedDemo: DemoUpstreamSettings? = nil,
        demoOutbox: (@Sendable () -> [UInt8])? = nil,
        storageChoice: GatewayStorageChoice = .memoryOnly
    ) async throws -> some ApplicationProtocol {
        guard case .haapi(let upstream) = configuration.upstream else {
            throw GatewayError(.configuration, "the demo upstream is started by the executable; pass a .haapi upstream to the library")
        }
        let core = try await GatewayCore.assemble(
            configuration: configuration,
            upstream: upstream,
            storage: try storageChoice.storage(configuration, logger, now),
            upstreamFactsFile: upstreamFactsFile,
            onOutcome: onOutcome,
            drain: drain,
            metrics: metrics,
            now: now,
            logger: logger
        )
        reloader.attach(ReloadTarget(live: core.live, upstream: core.upstream, embeddedDemo: embeddedDemo, logger: logger))
        let (router, health) = core.router(configuration: configuration, demoOutbox: demoOutbox)
        return try core.application(router: router, health: health, configuration: configuration, stopDeadline: stopDeadline, onRunning: onRunning)
    }
}
