import Hummingbird

/// `GET /demo/outbox`, only in front of the embedded demo upstream: the demo's outbox (the one-time codes of `otp` and
/// `sms`, `poll`'s approval links, notice copies, newest first) on the gateway's own origin, since the demo listens on a
/// random loopback port a person's browser does not know. Never registered with a real upstream.
struct DemoOutboxController: Sendable {
    /// The demo's `/demo/outbox` document (`{"messages":[…]}`), read when asked.
    let document: @Sendable () -> [UInt8]

    /// The path, as the demo server's own.
    static let path = "/demo/outbox"

    func register(on router: Router<GatewayRequestContext>) {
        router.get(RouterPath(Self.path)) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: document()))
            )
        }
    }
}
