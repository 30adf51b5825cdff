import Foundation

extension GatewayConfiguration {
    /// `tracing`: the collector, the service name, and the peers whose trace context is continued.
    static func resolveTracing(_ reader: inout ConfigurationReader) -> TracingSettings {
        var tracing = TracingSettings(endpoint: reader.httpURL(.tracingEndpoint))
        tracing.serviceName = reader.string(.tracingServiceName) ?? tracing.serviceName
        for entry in reader.list(.tracingTrustedParents) ?? [] {
            if let range = IPAddressRange(entry) {
                tracing.trustedParents.append(range)
            } else {
                reader.problem(.tracingTrustedParents, "'\(entry)' is not an IP address or CIDR block (such as 127.0.0.1 or 10.0.0.0/8)")
            }
        }
        return tracing
    }
}
