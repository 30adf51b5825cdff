import Foundation

/// OpenTelemetry tracing (`tracing.*`): spans of every request, upstream call, callback delivery and storage operation,
/// exported over OTLP/HTTP (``TraceExport``). Off unless an endpoint is configured here or by the standard
/// `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`.
public struct TracingSettings: Sendable {
    /// The collector's OTLP/HTTP traces URL (`http://collector:4318/v1/traces`), used as it is; nil leaves it to the
    /// `OTEL_*` environment.
    public var endpoint: URL?
    /// The `service.name` of every span (default `haapi-gateway`); `OTEL_SERVICE_NAME` wins over it.
    public var serviceName: String
    /// The peers (addresses or CIDR blocks) whose `traceparent` a request's span continues: a balancer or an API gateway
    /// in front of the gateway that traces too. A browser's is never honoured by default.
    public var trustedParents: [IPAddressRange] = []

    /// Creates tracing settings.
    /// - Parameters:
    ///   - endpoint: The collector's OTLP/HTTP traces URL.
    ///   - serviceName: The `service.name` of the spans.
    public init(endpoint: URL? = nil, serviceName: String = "haapi-gateway") {
        self.endpoint = endpoint
        self.serviceName = serviceName
    }
}

extension TracingSettings {
    /// Whether spans are made and exported: an endpoint configured here or in the environment
    /// (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), and tracing not switched off there
    /// (`OTEL_SDK_DISABLED=true`, `OTEL_TRACES_EXPORTER=none`).
    public func isEnabled(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if environment["OTEL_SDK_DISABLED"]?.lowercased() == "true" || environment["OTEL_TRACES_EXPORTER"]?.lowercased() == "none" { return false }
        let configured = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains { environment[$0]?.isEmpty == false }
        return endpoint != nil || configured
    }
}
