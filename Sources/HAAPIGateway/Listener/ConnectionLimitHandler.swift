import NIOCore
import NIOHTTPTypes

/// Counts a connection in ``ConnectionLimits`` when it opens and closes it at once when a cap is full; gives its place
/// back when it closes. One per connection, in the HTTP pipeline (after TLS, so it works for both listeners).
///
/// A connection is counted exactly once (when it becomes active, or when the handler is added to an active one) and
/// released exactly once (when it becomes inactive, or when the handler is removed, whichever comes first: the
/// ``ConnectionLease`` ignores a second release).
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// The counts shared by every connection of the listener.
    private let limits: ConnectionLimits
    /// Where a refusal is logged and counted.
    private let notices: ConnectionNotices
    /// This connection's place, once admitted.
    private var lease: ConnectionLease?
    /// Whether the connection was admitted or refused already (it is asked once, however often it is told it is active).
    private var decided = false

    /// - Parameters:
    ///   - limits: The counts shared by every connection of the listener.
    ///   - notices: Where a refusal is logged and counted.
    init(limits: ConnectionLimits, notices: ConnectionNotices) {
        self.limits = limits
        self.notices = notices
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        admit(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        lease?.release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        lease?.release()
    }

    /// Counts the connection, or closes it when a cap is full (once per connection).
    private func admit(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        let peer = context.channel.remoteAddress?.ipAddress
        switch limits.admit(from: peer) {
        case .admitted(let lease):
            self.lease = lease
        case .refused(let bound, let open):
            notices.refused(bound, open: open, peer: peer)
            context.close(promise: nil)
        }
    }
}
