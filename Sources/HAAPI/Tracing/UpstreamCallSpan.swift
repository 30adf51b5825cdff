import Foundation
import Tracing

/// The client span of one call to the upstream (OpenTelemetry's HTTP client conventions), with the trace context sent
/// along as W3C `traceparent` and `tracestate`, so that the upstream's server span (Curity's) joins the caller's trace.
/// The span names the call by what it is for, not by its URL; no attribute carries the query string, a header or a body
/// (tokens, codes, DPoP proofs, passwords, client credentials): only the method, the scheme, host, port and path, the
/// status and, for the token endpoint, the grant type.
enum UpstreamCallSpan {
    /// Sends `request` with `send` inside a client span; a failure that is not a ``HAAPIError`` is mapped to one.
    static func around(
        _ request: HTTPRequestData,
        endpoints: HAAPIEndpoints,
        send: (HTTPRequestData) async throws -> HTTPResponseData
    ) async throws(HAAPIError) -> HTTPResponseData {
        let call = UpstreamCall(request, endpoints: endpoints)
        do {
            return try await withSpan("HAAPI \(call.kind.rawValue)", ofKind: .client) { span in
                span.attributes = call.attributes
                var traced = request
                if let context = ServiceContext.current {
                    InstrumentationSystem.instrument.inject(context, into: &traced.headers, using: RequestHeaderInjector())
                }
                let response = try await send(traced)
                span.attributes["http.response.status_code"] = response.status
                if response.status >= 500 {
                    span.attributes["error.type"] = "\(response.status)"
                    span.setStatus(SpanStatus(code: .error))
                }
                return response
            }
        } catch let error as HAAPIError {
            throw error
        } catch {
            throw AsyncHTTPClientTransport.map(error, phase: "sending the request")
        }
    }
}
