import HAAPI

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
