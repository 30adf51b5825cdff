import HTTPTypes
import Hummingbird
import Tracing

/// A server span per request with the inbound W3C `traceparent` as its parent, as the Curity Identity Server makes one
/// for every HTTP request, a root span when the request carries no context ("OpenTelemetry", System and Operation guide:
/// https://curity.io/docs/identity-server/system-and-operation/operation-and-monitoring/open-telemetry), so that a
/// caller's trace runs on into the demo. Named by the route once routed; the path as the request log has it (approval
/// ids cut off), never the query (codes, states) nor a header's value. With no tracer set up, the spans cost nothing.
struct DemoTracingMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = ServiceContext.current ?? .topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: FieldsExtractor())
        let span = startSpan(request.method.rawValue, context: parent, ofKind: .server)
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["url.path"] = DemoRequestLogMiddleware.loggablePath(request.uri.path)
            attributes["url.scheme"] = "http"
        }
        defer { span.end() }
        var status = 500
        defer {
            if let route = context.endpointPath {
                span.operationName = "\(request.method.rawValue) \(route)"
                span.attributes["http.route"] = route
            }
            span.attributes["http.response.status_code"] = status
            if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        }
        do {
            let response = try await ServiceContext.$current.withValue(span.context) { try await next(request, context) }
            status = Int(response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            status = Int(error.status.code)
            throw error
        }
    }

    private struct FieldsExtractor: Extractor {
        func extract(key: String, from headers: HTTPFields) -> String? {
            HTTPField.Name(key).flatMap { headers[$0] }
        }
    }
}
