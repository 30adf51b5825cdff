import Foundation
import Logging
import ServiceLifecycle
import Tracing

/// Runs a program's service with its spans exported when tracing is on (``TraceExport``): the export beside it in one
/// service group, stopped after it, and the export's tracer the one every span of the service is made by. With tracing
/// off, the service alone. Both stop on SIGTERM or SIGINT.
public enum TracedService {
    /// Runs `service` until it stops or a signal stops it.
    /// - Parameters:
    ///   - tracing: Where spans go (with the `OTEL_*` environment).
    ///   - metrics: Where dropped spans are counted.
    public static func run(_ service: some Service, tracing: TracingSettings, metrics: GatewayMetrics = GatewayMetrics(), logger: Logger) async throws
    {
        guard let export = try TraceExport.make(tracing, metrics: metrics, logger: logger) else {
            let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            return try await group.run()
        }
        let group = ServiceGroup(
            configuration: .init(services: [export.service, service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await withTracer(export.tracer) { try await group.run() }
    }
}
