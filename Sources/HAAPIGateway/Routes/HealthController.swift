import Foundation
import HAAPI
import Hummingbird

/// `GET /healthz`: the process is alive. `GET /readyz`: it should get traffic: not draining and the upstream's
/// discovery answering (checked at most once a second). Both answer small JSON documents, never cached.
struct HealthController: Sendable {
    let client: HAAPIClient
    let drain: GatewayDrain
    let probe: UpstreamProbe

    func register(on router: Router<BasicRequestContext>) {
        router.get("/healthz") { _, _ in Self.json(#"{"status":"alive"}"#, status: .ok) }
        router.get("/readyz") { _, _ in
            let draining = drain.isDraining
            let upstream = await probe.isReachable()
            let ready = !draining && upstream
            let body = #"{"ready":\#(ready),"checks":{"draining":\#(draining),"upstream":"\#(upstream ? "reachable" : "unreachable")","templates":"loaded"}}"#
            return Self.json(body, status: ready ? .ok : .serviceUnavailable)
        }
    }

    private static func json(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// The upstream reachability, cached for a few seconds so that probes cannot turn into load on the upstream.
actor UpstreamProbe {
    private let client: HAAPIClient
    private let cacheFor: Duration
    private var last: (at: ContinuousClock.Instant, reachable: Bool)?

    init(client: HAAPIClient, cacheFor: Duration = .seconds(1)) {
        self.client = client
        self.cacheFor = cacheFor
    }

    func isReachable() async -> Bool {
        if let last, ContinuousClock.now - last.at < cacheFor { return last.reachable }
        // As patient as an upstream call may be, at most 5 s: a probe must not hang on a slow upstream.
        let reachable = await client.isUpstreamReachable(timeout: min(client.configuration.requestTimeout, .seconds(5)))
        last = (.now, reachable)
        return reachable
    }
}
