import Tracing

/// The span of one attempt to deliver an outcome to a sink: a client span for a webhook (whose request carries
/// `traceparent`, so that a receiver that traces continues it), an internal one for an exec or file sink. Its attributes:
/// the sink's kind and the attempt's number; never the sink's URL or path, the outcome, nor the delivery's id.
enum CallbackDeliverySpan {
    /// Delivers `delivery` to `sink` within the span of attempt `number`.
    static func attempt(_ delivery: CallbackDelivery, to sink: any CallbackSink, number: Int) async throws {
        let kind = kind(of: sink.name)
        try await withSpan("callback delivery \(kind)", ofKind: kind == "webhook" ? .client : .internal) { span in
            span.attributes["haapi_gateway.callback.sink"] = kind
            span.attributes["haapi_gateway.callback.attempt"] = number
            do {
                try await sink.deliver(delivery)
            } catch {
                span.setStatus(SpanStatus(code: .error))
                throw error
            }
        }
    }

    /// What a sink is, from its name (`exec:PATH`, `file:PATH`, or the webhook's URL): `exec`, `file` or `webhook`.
    static func kind(of name: String) -> String {
        if name.hasPrefix("exec:") { return "exec" }
        if name.hasPrefix("file:") { return "file" }
        return "webhook"
    }
}
