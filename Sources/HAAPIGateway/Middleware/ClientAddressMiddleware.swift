import Foundation
import HTTPTypes
import Hummingbird

/// Sets the request's client address: the connection's peer, or, when the peer is one of `server.trustedProxies`, the
/// right-most `X-Forwarded-For` address that is not a trusted proxy (the one the nearest trusted proxy saw; what a
/// client writes further left is never believed). The per-address bounds (new sign-ins, failed posts) count by it.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let trustedProxies: [IPAddressRange]

    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let peer = context.clientAddress, trustedProxies.anyContains(peer) else { return try await next(request, context) }
        var context = context
        context.clientAddress = forwardedClient(request.headers[values: Self.xForwardedFor]) ?? peer
        return try await next(request, context)
    }

    /// The right-most forwarded address not of a trusted proxy, or the left-most when all are trusted; nil without any.
    func forwardedClient(_ headers: [String]) -> String? {
        let hops = headers.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.anyContains($0) } ?? hops.first
    }
}
