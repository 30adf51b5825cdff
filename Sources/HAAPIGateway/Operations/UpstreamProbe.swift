import HAAPI

/// Whether the upstream answers now, asked at most once per `cacheFor` (readiness probes may come often); not
/// reachable while the gateway has not connected to it at all.
actor UpstreamProbe {
    private let upstream: UpstreamConnection
    private let cacheFor: Duration
    private var last: (at: ContinuousClock.Instant, reachable: Bool)?

    init(upstream: UpstreamConnection, cacheFor: Duration = .seconds(1)) {
        self.upstream = upstream
        self.cacheFor = cacheFor
    }

    func isReachable() async -> Bool {
        guard let client = upstream.client else { return false }
        if let last, ContinuousClock.now - last.at < cacheFor { return last.reachable }
        // As patient as an upstream call may be, at most 5 s: a probe must not hang on a slow upstream.
        let reachable = await client.isUpstreamReachable(timeout: min(client.configuration.requestTimeout, .seconds(5)))
        last = (.now, reachable)
        return reachable
    }
}
