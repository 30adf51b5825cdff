import Hummingbird
import NIOCore

/// The request context of the sign-in pages: Hummingbird's core context and the connection's peer address (what
/// failed posts are bounded by per client; forwarding headers are never trusted for it).
struct GatewayRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address (without the port), or nil for a Unix socket or an unknown peer.
    var clientAddress: String? { remoteAddress?.ipAddress }
}
