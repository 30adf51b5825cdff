import Foundation
import HAAPI
import Hummingbird

/// `GET /healthz`: the process runs. `GET /readyz`: it should get traffic: not draining, the pages render with the
/// templates in effect, connected to the upstream (``UpstreamConnection``), the upstream answering and a HAAPI token
/// obtainable (``UpstreamProbe``), and with `sessions.store: postgres` the database ready
/// (``PostgresSessionStorage/readiness()``); otherwise 503 with each check, the upstream named with why it is not ready
/// (connection refused, name resolution, TLS, timeout, misconfigured, token refused).
struct HealthController: Sendable {
    let upstream: UpstreamConnection
    let drain: GatewayDrain
    let probe: UpstreamProbe
    let live: LiveSettings
    /// The PostgreSQL session storage, when `sessions.store` is postgres: ready only when it is.
    var sessionStorage: PostgresSessionStorage? = nil

    /// The readiness document.
    struct Readiness: Encodable {
        struct Checks: Encodable {
            let draining: Bool
            let upstream: String
            let upstreamURL: String
            let templates: String
            /// Only with `sessions.store: postgres`.
            let sessionStore: String?
        }

        let ready: Bool
        let checks: Checks
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/healthz") { _, _ in Self.json(#"{"status":"alive"}"#, status: .ok) }
        router.get("/readyz") { _, _ in
            let draining = drain.isDraining
            let upstreamState: String
            var upstreamReady = false
            switch upstream.status {
            case .connecting(let failure): upstreamState = "connecting" + (failure.map { " (\($0))" } ?? "")
            case .misconfigured(let message): upstreamState = "misconfigured (\(message))"
            case .ready:
                switch await probe.check() {
                case .ready: (upstreamState, upstreamReady) = ("reachable", true)
                case .tokenRefused(let code): upstreamState = "reachable, but no HAAPI token (\(code))"
                case .unreachable, .notConnected: upstreamState = "unreachable"
                }
            }
            let templateProblem = live.snapshot.renderer.templates.renderingProblem
            var sessionStore: String?
            var sessionStoreReady = true
            if let sessionStorage {
                switch await sessionStorage.readiness() {
                case .ready: sessionStore = "ready"
                case .notReady(let reason): (sessionStore, sessionStoreReady) = ("not ready (\(reason))", false)
                }
            }
            let ready = !draining && upstreamReady && templateProblem == nil && sessionStoreReady
            let document = Readiness(
                ready: ready,
                checks: .init(
                    draining: draining,
                    upstream: upstreamState,
                    upstreamURL: upstream.upstreamName,
                    templates: templateProblem.map { "not renderable (\($0))" } ?? "renderable",
                    sessionStore: sessionStore
                )
            )
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"ready":false}"#
            return Self.json(body, status: ready ? .ok : .serviceUnavailable)
        }
    }

    private static func json(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
