import Hummingbird
import NIOCore

/// The request context of the sign-in pages: Hummingbird's core context and the client's address (what new sign-ins and
/// failed posts are bounded by per client): the connection's peer, or what a trusted proxy forwarded
/// (``ClientAddressMiddleware``).
struct GatewayRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.clientAddress = remoteAddress?.ipAddress
    }

    /// The client's IP address (without the port): the peer's unless a trusted proxy forwarded one; nil for a Unix socket
    /// or an unknown peer.
    var clientAddress: String?
    /// The request came as `HEAD` and is answered as its `GET`, without the body (``NormalizedRequestResponder``): it
    /// is logged as `HEAD`.
    var answeredAsHead = false
    /// The sign-in this request belongs to, for its log line.
    let flow = RequestFlow()
    /// The sessions this request checked out, checked in when it ends (``SessionCheckInMiddleware``).
    let checkouts = RequestCheckouts()
    /// The request's span continues the trace of the sign-in its cookie names (``RequestSpanMiddleware``): a sign-in the
    /// request starts begins a trace of its own (``BrowserSignIns/inNewSignInTrace(context:_:)``).
    var continuesSignInTrace = false
    /// The settings this request works with, read once (``GatewayServices/settings(for:)``).
    let settings = RequestSettings()
}
