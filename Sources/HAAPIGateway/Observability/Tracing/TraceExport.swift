import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// The gateway's tracer and the service that exports its spans over OTLP/HTTP (swift-otel): batched, from a bounded
/// queue that a request never waits on. Spans that cannot be sent (the collector down, the queue full) are dropped and
/// counted in `haapi_gateway_trace_spans_dropped_total` (``TraceExportWatch``). The standard `OTEL_*` environment
/// variables apply over the settings (`OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`, …).
public struct TraceExport: Sendable {
    /// The tracer every span of the process is made by (``GatewayServing`` makes it the task's).
    public let tracer: any Tracer
    /// Exports the spans; run it beside the gateway, before it in a service group so that it stops last and flushes.
    public let service: any Service

    /// The export `settings` ask for, nil when tracing is off (``TracingSettings/isEnabled(environment:)``).
    /// - Parameters:
    ///   - metrics: Where dropped spans are counted.
    ///   - logger: Where the exporter's own problems are logged.
    /// - Throws: ``GatewayError`` (configuration) for an `OTEL_*` value swift-otel refuses.
    public static func make(
        _ settings: TracingSettings,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        metrics: GatewayMetrics,
        logger: Logger
    ) throws(GatewayError) -> TraceExport? {
        guard settings.isEnabled(environment: environment) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        configuration.resourceAttributes["service.version"] = GatewayVersion.current.version
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        if let endpoint = settings.endpoint { configuration.traces.otlpExporter.endpoint = endpoint.absoluteString }
        let watch = TraceExportWatch(forwardingTo: logger.handler, metrics: metrics)
        configuration.diagnosticLogger = .custom(Logger(label: "haapi-gateway.tracing") { _ in watch })
        configuration.diagnosticLogLevel = .warning
        do {
            let backend = try OTel.makeTracingBackend(configuration: configuration)
            return TraceExport(tracer: backend.factory, service: backend.service)
        } catch {
            throw GatewayError(.configuration, "tracing could not be set up: \(error)")
        }
    }
}
