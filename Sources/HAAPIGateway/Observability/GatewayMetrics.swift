import CoreMetrics
import Prometheus

/// The gateway's metrics, through swift-metrics with a Prometheus registry of its own (no global bootstrap, so every
/// gateway and every test has its own numbers). Served as Prometheus text on a separate listener (`metrics.*`).
///
/// - `haapi_gateway_flows_started_total`
/// - `haapi_gateway_flows_completed_total{outcome="success|error|cancelled"}`
/// - `haapi_gateway_steps_rendered_total{type}`: steps shown to people, by HAAPI type
/// - `haapi_gateway_upstream_duration_seconds{endpoint="authorize|haapi|token"}`: a histogram
/// - `haapi_gateway_upstream_errors_total{kind}`: by `HAAPIError` code
/// - `haapi_gateway_sessions_open`
/// - `haapi_gateway_sessions_evicted_total`: sessions nobody came back to, pushed out at the cap by a new sign-in
/// - `haapi_gateway_sign_ins_refused_total{reason="address_budget|sessions_full|devices_full"}`: new sign-ins refused
///   before any upstream call
/// - `haapi_gateway_device_grant_total{event="authorized|tokens_issued|refreshed|revoked|wrong_code"}`: the device
///   authorization grant (`devices.enabled`): codes handed out, tokens collected, refreshes and revocations through the
///   gateway, wrong user codes entered
/// - `haapi_gateway_callback_deliveries_total{result="delivered|retried|given_up|spooled"}`
/// - `haapi_gateway_connections_open`: connections open on the public listener
/// - `haapi_gateway_connections_refused_total{reason="total|per_address"}`: closed at once, `server.maximumConnections` or
///   `server.maximumConnectionsPerAddress` reached
/// - `haapi_gateway_connections_timed_out_total`: closed because a whole request did not come within
///   `server.requestTimeoutSeconds`
public struct GatewayMetrics: Sendable {
    /// The registry the metrics live in.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    /// Metrics in a fresh registry.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    func flowStarted() {
        Counter(label: "haapi_gateway_flows_started_total", factory: factory).increment()
    }

    func flowEnded(outcome: String) {
        Counter(label: "haapi_gateway_flows_completed_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    func stepRendered(type: String) {
        Counter(label: "haapi_gateway_steps_rendered_total", dimensions: [("type", type)], factory: factory).increment()
    }

    func upstreamCall(endpoint: String, took duration: Duration) {
        Timer(label: "haapi_gateway_upstream_duration_seconds", dimensions: [("endpoint", endpoint)], factory: factory).recordNanoseconds(
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        )
    }

    func upstreamError(kind: String) {
        Counter(label: "haapi_gateway_upstream_errors_total", dimensions: [("kind", kind)], factory: factory).increment()
    }

    func sessionsOpen(_ count: Int) {
        Gauge(label: "haapi_gateway_sessions_open", factory: factory).record(count)
    }

    func sessionsEvicted(_ total: Int) {
        Gauge(label: "haapi_gateway_sessions_evicted_total", factory: factory).record(total)
    }

    func signInRefused(reason: String) {
        Counter(label: "haapi_gateway_sign_ins_refused_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    func deviceGrant(event: String) {
        Counter(label: "haapi_gateway_device_grant_total", dimensions: [("event", event)], factory: factory).increment()
    }

    func callbackDelivery(result: String) {
        Counter(label: "haapi_gateway_callback_deliveries_total", dimensions: [("result", result)], factory: factory).increment()
    }

    func connectionsOpen(_ count: Int) {
        Gauge(label: "haapi_gateway_connections_open", factory: factory).record(count)
    }

    func connectionRefused(reason: String) {
        Counter(label: "haapi_gateway_connections_refused_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    func connectionTimedOut() {
        Counter(label: "haapi_gateway_connections_timed_out_total", factory: factory).increment()
    }

    /// The Prometheus text exposition.
    public func exposition() -> String { registry.emitToString() }
}
