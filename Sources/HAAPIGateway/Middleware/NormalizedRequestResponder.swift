import HTTPTypes
import Hummingbird

/// Hands every request to the router by its normalised path, so that it is routed exactly as it is logged: runs of
/// slashes collapsed and dot segments removed (RFC 3986 §5.2.4), so that `//pair/<secret>` or `/x/../pair/<secret>` is
/// routed, and its secret redacted in the log, exactly as `/pair/<secret>` is. A `HEAD` request is answered as its
/// `GET` is, without the body (RFC 9110 §9.3.2), and logged as `HEAD` (``GatewayRequestContext/answeredAsHead``); its
/// cookies are left out, so that a `HEAD`, which is safe (§9.2.1), reaches no sign-in: a link checker's or a preview's
/// neither ends a kiosk's idle sign-in nor keeps it alive (every lookup of a sign-in counts as its use).
///
/// A responder around the router, not a router middleware: Hummingbird's router picks the route from the path before
/// its middlewares run, so a middleware's new path would be logged but not routed.
struct NormalizedRequestResponder<Wrapped: HTTPResponder>: HTTPResponder where Wrapped.Context == GatewayRequestContext {
    typealias Context = Wrapped.Context
    let wrapped: Wrapped
    /// The routes `wrapped` answers, as registered (a `HEAD` is answered by its `GET` route): what the tests go through.
    let routes: [(method: HTTPRequest.Method, path: RouterPath)]

    func respond(to request: Request, context: Context) async throws -> Response {
        var context = context
        let path = request.uri.path
        let normalized = Self.normalize(path)
        let isHead = request.method == .head
        guard normalized != path || isHead else { return try await wrapped.respond(to: request, context: context) }
        var head = request.head
        head.path = normalized + (request.uri.query.map { "?" + $0 } ?? "")
        if isHead {
            head.method = .get
            head.headerFields[.cookie] = nil
            context.answeredAsHead = true
        }
        let response = try await wrapped.respond(to: Request(head: head, body: request.body), context: context)
        guard isHead else { return response }
        return Response(status: response.status, headers: response.headers)
    }

    /// `path` with runs of `/` collapsed and `.` and `..` segments removed; always starts with `/`.
    static func normalize(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        let trailing = path.hasSuffix("/") && !segments.isEmpty ? "/" : ""
        return "/" + segments.joined(separator: "/") + trailing
    }
}
