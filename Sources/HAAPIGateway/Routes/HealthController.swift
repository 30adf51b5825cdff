import Foundation
import HAAPI
import Hummingbird

/// `GET /healthz`: the process is alive. `GET /readyz`: it should get traffic: not draining and the upstream's
/// discovery answering (checked at most once a second). Both answer small JSON documents, never cached.
struct HealthController: Sendable {
    let client: HAAPIClient
    let drain: GatewayDrain
    let probe: UpstreamProbe

    func register<Context: RequestContext>(on router: Router<Context>) {
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
