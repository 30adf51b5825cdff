import Logging

/// The log handler of swift-otel's own diagnostics: it counts the spans the exporter dropped, which swift-otel reports
/// only in these lines, into `haapi_gateway_trace_spans_dropped_total`, and passes each line on to the gateway's log.
/// Two lines carry a count: a batch that could not be sent ("Failed to export batch.", `batch_size`), and spans refused by
/// a full queue (`dropped_count`). `TracingAcrossProcessesTests` checks the count against a collector that is down, so
/// that a swift-otel that words them otherwise fails a test rather than counting nothing.
struct TraceExportWatch: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level {
        get { next.logLevel }
        set { next.logLevel = newValue }
    }
    private var next: any LogHandler
    private let metrics: GatewayMetrics

    init(forwardingTo next: any LogHandler, metrics: GatewayMetrics) {
        self.next = next
        self.metrics = metrics
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if let dropped = Self.count(all["dropped_count"]) {
            metrics.traceSpansDropped(dropped)
        } else if event.message.description.hasPrefix("Failed to export batch"), let lost = Self.count(all["batch_size"]) {
            metrics.traceSpansDropped(lost)
        }
        var forwarded = event
        forwarded.metadata = all
        next.log(event: forwarded)
    }

    private static func count(_ value: Logger.Metadata.Value?) -> Int? {
        guard let value else { return nil }
        return switch value {
        case .string(let text): Int(text)
        case .stringConvertible(let convertible): Int(convertible.description)
        default: nil
        }
    }
}
