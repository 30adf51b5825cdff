import HTTPTypes
import Tracing

/// Trace context (`traceparent`, `tracestate`) out of a request's headers.
struct HeaderExtractor: Extractor {
    func extract(key: String, from headers: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key) else { return nil }
        return headers[name]
    }
}
