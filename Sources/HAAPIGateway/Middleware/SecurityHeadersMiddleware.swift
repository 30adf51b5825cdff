import Foundation
import HTTPTypes
import Hummingbird

/// Adds the security headers to every response: a strict CSP (scripts and styles only from the gateway's own
/// `/assets/`, never inline, no framing), `X-Frame-Options: DENY` for browsers that do not know CSP's
/// `frame-ancestors`, `nosniff`, `no-referrer` and `no-store`; over HTTPS, `Strict-Transport-Security` when
/// `server.strictTransportSecuritySeconds` asks for it.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext
    /// The configuration in effect, for where the last form post may lead (`completion.redirectURL`): the request's own
    /// (``RequestSettings``), as its controller saw it.
    let live: LiveSettings

    /// The policy. `form-action` also governs where a form post's redirect may go, so the origin of
    /// `completion.redirectURL` (reached by a redirect after the last post) is allowed beside the gateway's own.
    static func contentSecurityPolicy(completionURL: URL? = nil) -> String {
        let formAction = (["'self'"] + [RequestOriginGuard.origin(of: completionURL)].compactMap { $0 }).joined(separator: " ")
        return
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action \(formAction); frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let configuration = context.settings.snapshot(from: live).configuration
        response.headers[HTTPField.Name("Content-Security-Policy")!] = Self.contentSecurityPolicy(
            completionURL: configuration.completion.redirectURL
        )
        // RFC 6797 §7.2: only over a secure transport (a browser ignores it otherwise, §8.1).
        if configuration.server.strictTransportSecuritySeconds > 0, configuration.server.servesTLS {
            response.headers[HTTPField.Name("Strict-Transport-Security")!] = "max-age=\(configuration.server.strictTransportSecuritySeconds)"
        }
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
