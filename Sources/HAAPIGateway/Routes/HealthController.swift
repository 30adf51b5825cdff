import Foundation
import HAAPI
import Hummingbird

/// `GET /healthz`: the process runs. `GET /readyz`: it should get traffic: not draining, the pages render with the
/// templates in effect, connected to the upstream (``UpstreamConnection``), the upstream answering and a HAAPI token
/// obtainable (``UpstreamProbe``), and with `sessions.store: postgres` the database ready
/// (``GatewayStorage/readiness``); otherwise 503 with each check, the upstream named with why it is not ready
/// (connection refused, name resolution, TLS, timeout, misconfigured, token refused).
///
/// `/readyz` answers within ``answerWithin`` whatever the upstream and the database do: each of their checks runs at
/// most once a second, one at a time (``LatestCheck``); a check that has not ended by then is answered with its last
/// result, and ends in the background for the next probe.
struct HealthController: Sendable {
    let upstream: UpstreamConnection
    let drain: GatewayDrain
    let live: LiveSettings
    private let upstreamCheck: LatestCheck<UpstreamProbe.Finding>
    private let storeCheck: LatestCheck<StorageReadiness>?

    /// How long `/readyz` waits for a check under way before it answers with the last result.
    static let answerWithin = Duration.milliseconds(80)

    /// - Parameter storageReadiness: Whether the storage can serve (``GatewayStorage/readiness``); nil: always.
    init(
        upstream: UpstreamConnection,
        drain: GatewayDrain,
        probe: UpstreamProbe,
        live: LiveSettings,
        storageReadiness: (@Sendable () async -> StorageReadiness)? = nil
    ) {
        self.upstream = upstream
        self.drain = drain
        self.live = live
        upstreamCheck = LatestCheck(freshFor: .seconds(1)) { await probe.check() }
        storeCheck = storageReadiness.map { readiness in LatestCheck(freshFor: .seconds(1)) { await readiness() } }
    }

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
            // The upstream and the database are asked together; each answers within `answerWithin`.
            async let upstreamFinding = upstreamFinding()
            async let storeReadiness = storeReadiness()
            let upstreamState: String
            var upstreamReady = false
            switch upstream.status {
            case .connecting(let failure): upstreamState = "connecting" + (failure.map { " (\($0))" } ?? "")
            case .misconfigured(let message): upstreamState = "misconfigured (\(message))"
            case .ready:
                switch await upstreamFinding {
                case .ready?: (upstreamState, upstreamReady) = ("reachable", true)
                case .tokenRefused(let code)?: upstreamState = "reachable, but no HAAPI token (\(code))"
                case .unreachable?, .notConnected?: upstreamState = "unreachable"
                case nil: upstreamState = "being checked"
                }
            }
            let templateProblem = live.snapshot.renderer.templates.renderingProblem
            var sessionStore: String?
            var sessionStoreReady = true
            switch await storeReadiness {
            case nil: break
            case .ready?: sessionStore = "ready"
            case .notReady(let reason)?: (sessionStore, sessionStoreReady) = ("not ready (\(reason))", false)
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

    /// The upstream probe's finding, when the gateway is connected to the upstream (else nothing is asked); nil while the
    /// probe has not answered yet.
    private func upstreamFinding() async -> UpstreamProbe.Finding? {
        guard case .ready = upstream.status else { return .notConnected }
        return await upstreamCheck.value(waitingAtMost: Self.answerWithin)
    }

    /// The database's readiness with `sessions.store: postgres` (nil without a database).
    private func storeReadiness() async -> StorageReadiness? {
        guard let storeCheck else { return nil }
        return await storeCheck.value(waitingAtMost: Self.answerWithin) ?? .notReady("being checked")
    }

    private static func json(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
