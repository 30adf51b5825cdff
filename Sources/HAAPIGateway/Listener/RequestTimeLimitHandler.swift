import NIOCore
import NIOHTTPTypes

/// Closes a connection that does not deliver a whole request, head and body, within a time limit
/// (`server.requestTimeoutSeconds`) of its opening or of the end of its previous response: a client that sends a
/// byte now and then (Hummingbird's idle timer starts again on every body part) cannot hold a connection.
///
/// The timer is armed when the handler is added (the connection was accepted, before any TLS handshake) and again when
/// a response's end has been written and no complete request waits for its response; it is disarmed when a request's
/// end is read. While the gateway works on a response there is no timer (the upstream timeout bounds that time).
/// Requests and responses are counted, so pipelined requests and a response written before its request's body was read
/// (a 413) are handled: a request whose end was read but whose response has not ended keeps the timer off.
final class RequestTimeLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a whole request may take.
    private let limit: TimeAmount
    /// Where a closed connection is reported.
    private let notices: ConnectionNotices?
    /// Requests whose end was read.
    private var requestsRead = 0
    /// Responses whose end was written.
    private var responsesWritten = 0
    /// The running timer, if any.
    private var timer: Scheduled<Void>?

    /// - Parameters:
    ///   - limit: How long a whole request may take.
    ///   - notices: Where a closed connection is reported (`nil`: not reported).
    init(limit: TimeAmount, notices: ConnectionNotices?) {
        self.limit = limit
        self.notices = notices
    }

    /// Whether a complete request waits for its response (the gateway is working on it).
    private var isResponding: Bool { requestsRead > responsesWritten }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            requestsRead += 1
            if isResponding { disarm() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        responsesWritten += 1
        // The time until the next request counts from when the response left (not from when it was queued), so a slow
        // reader of a large page is not cut off by this timer.
        let written = promise ?? context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenSuccess { [self] in
            if !isResponding, context.channel.isActive { arm(context) }
        }
        context.write(data, promise: written)
    }

    /// Starts the timer unless it runs.
    private func arm(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { [self] in
            timer = nil
            notices?.timedOut(after: Int(limit.nanoseconds / 1_000_000_000), peer: context.channel.remoteAddress?.ipAddress)
            context.close(promise: nil)
        }
    }

    /// Stops the timer.
    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
