import HTTPTypes
import Hummingbird

/// Routes and logs every request by its normalised path: runs of slashes collapsed and dot segments removed (RFC 3986
/// §5.2.4), so that `//pair/<secret>` or `/x/../pair/<secret>` is routed, and its secret redacted in the log, exactly
/// as `/pair/<secret>` is. First in the chain.
struct PathNormalizingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let normalized = Self.normalize(path)
        guard normalized != path else { return try await next(request, context) }
        var head = request.head
        head.path = normalized + (request.uri.query.map { "?" + $0 } ?? "")
        return try await next(Request(head: head, body: request.body), context)
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
