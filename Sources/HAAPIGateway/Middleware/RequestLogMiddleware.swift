import Hummingbird
import Logging

/// One log line per request: method, path (the single-use link's secret replaced by `…`; query strings never logged;
/// control characters escaped and the length bounded, as every value from outside: ``LogText/untrusted(_:)``),
/// status and duration, with Hummingbird's request id (`hb.request.id`) from the request's logger, and the `flow` id when
/// the request belongs to a sign-in (the same id as the sign-in's events).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": "\(context.answeredAsHead ? "HEAD" : request.method.rawValue)", "path": .untrusted(Self.loggablePath(request.uri.path)),
            "status": .stringConvertible(response.status.code),
            "milliseconds": .stringConvertible((milliseconds * 10).rounded() / 10),
        ]
        if let flow = context.flow.id { metadata["flow"] = "\(flow)" }
        context.logger.info("request", metadata: metadata)
        return response
    }

    /// The path as logged: `/pair/<secret>` becomes `/pair/…`.
    static func loggablePath(_ path: String) -> String {
        path.hasPrefix("/pair/") && path != "/pair/confirm" ? "/pair/…" : path
    }
}
