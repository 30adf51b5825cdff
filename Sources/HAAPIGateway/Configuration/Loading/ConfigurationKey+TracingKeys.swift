import Foundation

/// The settings of tracing.
extension ConfigurationKey {
    /// The `tracing` section's keys, in the reference's order.
    static let tracingKeys: [ConfigurationKey] = [
        tracingEndpoint, tracingServiceName, tracingTrustedParents,
    ]

    public static let tracingEndpoint = ConfigurationKey(
        "tracing.endpoint",
        .string,
        .afterRestart(\.tracing.endpoint),
        "The OpenTelemetry collector's OTLP/HTTP traces URL; tracing is off without it (or OTEL_EXPORTER_OTLP_ENDPOINT)."
    ) { $0.tracing.endpoint?.absoluteString }

    public static let tracingServiceName = ConfigurationKey(
        "tracing.serviceName",
        .string,
        .afterRestart(\.tracing.serviceName),
        "The service.name of the gateway's spans (OTEL_SERVICE_NAME wins over it)."
    ) { $0.tracing.serviceName }

    public static let tracingTrustedParents = ConfigurationKey(
        "tracing.trustedParents",
        .list,
        .afterRestart(\.tracing.trustedParents),
        "Peers (addresses or CIDR blocks) whose traceparent a request's span continues; never a browser's by default."
    ) { list($0.tracing.trustedParents.map(\.description)) }
}
