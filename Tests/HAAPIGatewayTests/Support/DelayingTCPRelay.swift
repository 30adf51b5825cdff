import NIOCore
import NIOPosix

/// A loopback TCP relay in front of a server that hands what the server sends to the client `delay` late, in order
/// (what the client sends passes at once): each round trip takes `delay` longer, as for a client on a loaded machine
/// that reads its answers late.
final class DelayingTCPRelay: Sendable {
    /// The loopback port the relay listens on.
    let port: Int
    private let listener: any Channel

    private init(port: Int, listener: any Channel) {
        self.port = port
        self.listener = listener
    }

    /// Starts a relay to `127.0.0.1:targetPort`.
    static func start(to targetPort: Int, delay: TimeAmount) async throws -> DelayingTCPRelay {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelInitializer { client in
                ClientBootstrap(group: client.eventLoop)
                    .channelInitializer { server in server.pipeline.addHandler(Forwarder(to: client, delay: delay)) }
                    .connect(host: "127.0.0.1", port: targetPort)
                    .flatMap { server in
                        client.pipeline.addHandler(Forwarder(to: server, delay: nil)).flatMap {
                            client.setOption(ChannelOptions.autoRead, value: true)
                        }
                    }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return DelayingTCPRelay(port: listener.localAddress?.port ?? 0, listener: listener)
    }

    /// Stops listening (connections already relayed end with their ends).
    func stop() async {
        try? await listener.close()
    }

    /// Writes what one side reads to the other, after `delay` when set; closes the other when its side closes.
    private final class Forwarder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let peer: any Channel
        private let delay: TimeAmount?

        init(to peer: any Channel, delay: TimeAmount?) {
            self.peer = peer
            self.delay = delay
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = Self.unwrapInboundIn(data)
            let peer = self.peer
            guard let delay else {
                peer.writeAndFlush(bytes, promise: nil)
                return
            }
            // Scheduled in arrival order with the same delay: they leave in order.
            context.eventLoop.scheduleTask(in: delay) { peer.writeAndFlush(bytes, promise: nil) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            let peer = self.peer
            if let delay {
                context.eventLoop.scheduleTask(in: delay) { peer.close(promise: nil) }
            } else {
                peer.close(promise: nil)
            }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
