import Tracing

/// Writes trace context (`traceparent`, `tracestate`) into a request's headers, replacing any of the same name.
struct RequestHeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout [(name: String, value: String)]) {
        headers.removeAll { $0.name.caseInsensitiveCompare(key) == .orderedSame }
        headers.append((name: key, value: value))
    }
}
