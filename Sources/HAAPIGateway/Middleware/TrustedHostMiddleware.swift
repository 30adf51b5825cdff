import HTTPTypes
import Hummingbird

/// Answers only for the gateway's own host names, so that another name pointed at it (DNS rebinding) never decides the
/// origin the CSRF check compares with or the addresses the gateway builds: with `server.publicURL`, its host; without,
/// `localhost` and IP addresses (a rebinding needs a name), and the configured listening host when it is a name.
/// A request with more than one `Host` header is refused. Health probes (`/healthz`, `/readyz`) are answered for any
/// host: load balancers and orchestrators probe by address.
struct TrustedHostMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The server's settings (a reload never changes them: they wait for a restart).
    let server: ServerSettings

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The first Host header is the request's authority; any other is left among the fields.
        guard request.headers[values: Self.hostField].isEmpty else {
            context.logger.notice("request refused: more than one Host header")
            throw GatewayError(.badRequest, .hostRefused)
        }
        let path = request.uri.path
        if path == "/healthz" || path == "/readyz" { return try await next(request, context) }
        guard let authority = request.head.authority, TrustedHosts.accepts(authority, publicURL: server.publicBaseURL, listeningHost: server.host)
        else {
            context.logger.notice("request refused: not one of the gateway's host names")
            throw GatewayError(.misdirected, .hostRefused)
        }
        return try await next(request, context)
    }

    static var hostField: HTTPField.Name { HTTPField.Name("Host")! }
}
