import CoreMetrics
import HAAPI
import Prometheus

/// The gateway's metrics, through swift-metrics with a Prometheus registry of its own (no global bootstrap, so every
/// gateway and every test has its own numbers). Served as Prometheus text on a separate listener (`metrics.*`).
///
/// Every series below is in the exposition from the start, at 0, each label value it is known to take included, so that
/// a dashboard or an alert reads 0 before the first event instead of "no data" (`docs/operations.md` § Metrics lists
/// them; a test checks the list against a fresh gateway's `/metrics`):
///
/// - `haapi_gateway_flows_started_total`
/// - `haapi_gateway_flows_completed_total{outcome}`: ``FlowOutcome``
/// - `haapi_gateway_steps_rendered_total{type}`: steps shown to people, by HAAPI type (``renderedStepTypes`` from the
///   start; any other type the upstream sends once it is shown)
/// - `haapi_gateway_upstream_duration_seconds{endpoint}`: a histogram, ``UpstreamEndpoint``
/// - `haapi_gateway_upstream_errors_total{kind}`: by `HAAPIError` code (every one of `HAAPIError.Code.allCases`), and
///   `invalid_id_token`
/// - `haapi_gateway_sessions_open`
/// - `haapi_gateway_sessions_evicted_total`: sessions nobody came back to, pushed out at the cap by a new sign-in
/// - `haapi_gateway_sign_ins_refused_total{reason}`: new sign-ins refused before any upstream call,
///   ``SignInRefusalReason``
/// - `haapi_gateway_callback_deliveries_total{result}`: ``CallbackDeliveryResult``
/// - `haapi_gateway_connections_open`: connections open, the metrics listener's included
/// - `haapi_gateway_connections_refused_total{reason="total|per_address"}`: closed at once, `server.maximumConnections` or
///   `server.maximumConnectionsPerAddress` reached (``ConnectionBound``)
/// - `haapi_gateway_connections_timed_out_total`: closed because a whole request did not come within
///   `server.requestTimeoutSeconds`
/// - `haapi_gateway_device_grant_total{event}`: the device authorization grant (`devices.enabled`), ``DeviceGrantEvent``
/// - `haapi_gateway_trace_spans_dropped_total`: spans the trace export could not send (the collector down or slow) or
///   had no room for (``TraceExportWatch``)
public struct GatewayMetrics: Sendable {
    /// The registry the metrics live in.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    /// The HAAPI step types a page shows (the automatic ones, redirection and continue-same, are followed, never shown).
    static let renderedStepTypes: [RepresentationType] = [
        .authenticationStep, .registrationStep, .userConsentStep, .consentorStep, .pollingStep,
    ]

    /// The `kind` of an ID token the gateway refused (every other kind is a `HAAPIError` code).
    static let invalidIDTokenKind = "invalid_id_token"

    /// Metrics in a fresh registry, every series at 0.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        startEverySeriesAtZero()
    }

    /// Makes every series and every known label value, so that each is in the exposition at 0 before its first event.
    /// Making a metric registers it; recording nothing leaves it at 0.
    private func startEverySeriesAtZero() {
        _ = flowsStarted
        for outcome in FlowOutcome.allCases { _ = flowsCompleted(outcome) }
        for type in Self.renderedStepTypes { _ = stepsRendered(type.rawValue) }
        for endpoint in UpstreamEndpoint.allCases { _ = upstreamDuration(endpoint) }
        for kind in HAAPIError.Code.allCases.map(\.description) + [Self.invalidIDTokenKind] { _ = upstreamErrors(kind) }
        sessionsOpen(0)
        sessionsEvicted(0)
        for reason in SignInRefusalReason.allCases { _ = signInsRefused(reason) }
        for result in CallbackDeliveryResult.allCases { _ = callbackDeliveries(result) }
        connectionsOpen(0)
        for bound in ConnectionBound.allCases { _ = connectionsRefused(bound) }
        _ = connectionsTimedOut
        for event in DeviceGrantEvent.allCases { _ = deviceGrants(event) }
        _ = traceSpansDroppedTotal
    }

    // MARK: - Recording

    func flowStarted() { flowsStarted.increment() }

    func flowEnded(_ outcome: FlowOutcome) { flowsCompleted(outcome).increment() }

    func stepRendered(type: String) { stepsRendered(type).increment() }

    func upstreamCall(_ endpoint: UpstreamEndpoint, took duration: Duration) {
        upstreamDuration(endpoint).recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// An upstream call failed: `kind` is its `HAAPIError` code, or ``invalidIDTokenKind``.
    func upstreamError(kind: String) { upstreamErrors(kind).increment() }

    func sessionsOpen(_ count: Int) {
        Gauge(label: "haapi_gateway_sessions_open", factory: factory).record(count)
    }

    func sessionsEvicted(_ total: Int) {
        Gauge(label: "haapi_gateway_sessions_evicted_total", factory: factory).record(total)
    }

    func signInRefused(_ reason: SignInRefusalReason) { signInsRefused(reason).increment() }

    func deviceGrant(_ event: DeviceGrantEvent) { deviceGrants(event).increment() }

    package func callbackDelivery(_ result: CallbackDeliveryResult) { callbackDeliveries(result).increment() }

    func connectionsOpen(_ count: Int) {
        Gauge(label: "haapi_gateway_connections_open", factory: factory).record(count)
    }

    func connectionRefused(_ bound: ConnectionBound) { connectionsRefused(bound).increment() }

    func connectionTimedOut() { connectionsTimedOut.increment() }

    func traceSpansDropped(_ count: Int) { traceSpansDroppedTotal.increment(by: Int64(count)) }

    /// The Prometheus text exposition.
    public func exposition() -> String { registry.emitToString() }

    // MARK: - The series (made once in the registry, found there again afterwards)

    private var flowsStarted: CoreMetrics.Counter { CoreMetrics.Counter(label: "haapi_gateway_flows_started_total", factory: factory) }

    private func flowsCompleted(_ outcome: FlowOutcome) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "haapi_gateway_flows_completed_total", dimensions: [("outcome", outcome.rawValue)], factory: factory)
    }

    private func stepsRendered(_ type: String) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "haapi_gateway_steps_rendered_total", dimensions: [("type", type)], factory: factory)
    }

    private func upstreamDuration(_ endpoint: UpstreamEndpoint) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: "haapi_gateway_upstream_duration_seconds", dimensions: [("endpoint", endpoint.rawValue)], factory: factory)
    }

    private func upstreamErrors(_ kind: String) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "haapi_gateway_upstream_errors_total", dimensions: [("kind", kind)], factory: factory)
    }

    private func signInsRefused(_ reason: SignInRefusalReason) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "haapi_gateway_sign_ins_refused_total", dimensions: [("reason", reason.rawValue)], factory: factory)
    }

    private func deviceGrants(_ event: DeviceGrantEvent) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "haapi_gateway_device_grant_total", dimensions: [("event", event.rawValue)], factory: factory)
    }

    private func callbackDeliveries(_ result: CallbackDeliveryResult) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "haapi_gateway_callback_deliveries_total", dimensions: [("result", result.rawValue)], factory: factory)
    }

    private func connectionsRefused(_ bound: ConnectionBound) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "haapi_gateway_connections_refused_total", dimensions: [("reason", bound.metricReason)], factory: factory)
    }

    private var traceSpansDroppedTotal: CoreMetrics.Counter {
        CoreMetrics.Counter(label: "haapi_gateway_trace_spans_dropped_total", factory: factory)
    }

    private var connectionsTimedOut: CoreMetrics.Counter { CoreMetrics.Counter(label: "haapi_gateway_connections_timed_out_total", factory: factory) }
}
