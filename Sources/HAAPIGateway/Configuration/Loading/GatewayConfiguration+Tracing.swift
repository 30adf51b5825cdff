import Foundation

extension GatewayConfiguration {
    /// `tracing`: the collector, the service name, and the peers whose trace context is continued.
    static func resolveTracing(_ reader: inout ConfigurationReader) -> TracingSettings {
        var tracing = TracingSettings(endpoint: reader.httpURL(.tracingEndpoint))
        tracing.serviceName = reader.string(.tracingServiceName) ?? tracing.serviceName
        tracing.trustedParents = reader.addressRanges(.tracingTrustedParents)
        return tracing
    }
}
