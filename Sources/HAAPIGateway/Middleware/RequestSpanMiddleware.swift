import Hummingbird
import Tracing

/// A server span for every request (OpenTelemetry's HTTP server conventions), named by its route once routed. Its parent:
/// the `traceparent` of a peer in `tracing.trustedParents` (a balancer that traces); else the trace of the sign-in whose
/// cookie the request carries (``SignInTraceMark``), so that one sign-in is one trace across requests and replicas; else
/// none (a new trace). A browser's own `traceparent` is ignored. The attributes never hold the query string, a header's
/// value, a cookie or a body: the method, the route and the path as the request log has it (a single-use link's secret
/// left out), the status, the client's address.
struct RequestSpanMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let trustedParents: [IPAddressRange]
    let marks: SignInTraceMark
    let cookieName: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var parent = ServiceContext.topLevel
        if let peer = context.remoteAddress?.ipAddress, trustedParents.contains(where: { $0.contains(peer) }) {
            InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        } else if let cookie = request.cookieValue(cookieName), let carrier = marks.context(in: cookie) {
            InstrumentationSystem.instrument.extract(carrier, into: &parent, using: DictionaryInjector())
            context.continuesSignInTrace = true
        }
        let method = context.answeredAsHead ? "HEAD" : request.method.rawValue
        let span = startSpan(method, context: parent, ofKind: .server)
        span.updateAttributes { attributes in
            attributes["http.request.method"] = method
            attributes["url.path"] = RequestLogMiddleware.loggablePath(request.uri.path)
            attributes["url.scheme"] = request.uri.scheme?.rawValue ?? "http"
            if let address = context.clientAddress { attributes["client.address"] = address }
        }
        defer { span.end() }
        do {
            let response = try await ServiceContext.$current.withValue(span.context) { try await next(request, context) }
            finish(span, context: context, status: Int(response.status.code))
            return response
        } catch {
            finish(span, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500)
            throw error
        }
    }

    private func finish(_ span: any Span, context: Context, status: Int) {
        if let route = context.endpointPath {
            span.operationName = "\(span.operationName) \(route)"
            span.attributes["http.route"] = route
        }
        span.attributes["http.response.status_code"] = status
        if status >= 500 {
            span.attributes["error.type"] = "\(status)"
            span.setStatus(SpanStatus(code: .error))
        }
    }
}
