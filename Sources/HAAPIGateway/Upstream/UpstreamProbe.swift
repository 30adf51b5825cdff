import HAAPI

/// Whether the upstream answers now, and whether it hands out a HAAPI token to the client: its discovery asked at most
/// once per `cacheFor` (readiness probes may come often), a token at most once per `tokenCacheFor` (each is a token
/// request at the upstream); not ready while the gateway has not connected to it at all.
actor UpstreamProbe {
    /// What the probe found.
    enum Finding: Sendable, Equatable {
        case notConnected
        case unreachable
        /// Discovery answers, but no HAAPI token was obtained (its error code).
        case tokenRefused(String)
        case ready
    }

    private let upstream: UpstreamConnection
    private let cacheFor: Duration
    private let tokenCacheFor: Duration
    private var lastReachability: (at: ContinuousClock.Instant, reachable: Bool)?
    private var lastToken: (at: ContinuousClock.Instant, failure: String?)?

    init(upstream: UpstreamConnection, cacheFor: Duration = .seconds(1), tokenCacheFor: Duration = .seconds(30)) {
        self.upstream = upstream
        self.cacheFor = cacheFor
        self.tokenCacheFor = tokenCacheFor
    }

    func check() async -> Finding {
        guard let client = upstream.client else { return .notConnected }
        // As patient as an upstream call may be, at most 5 s: a probe must not hang on a slow upstream.
        let patience = min(client.configuration.requestTimeout, .seconds(5))
        if lastReachability == nil || ContinuousClock.now - lastReachability!.at >= cacheFor {
            lastReachability = (.now, await client.isUpstreamReachable(timeout: patience))
        }
        guard lastReachability?.reachable == true else { return .unreachable }
        if lastToken == nil || ContinuousClock.now - lastToken!.at >= tokenCacheFor {
            do throws(HAAPIError) {
                try await client.verifyHAAPIAccess()
                lastToken = (.now, nil)
            } catch {
                lastToken = (.now, "\(error.code)")
            }
        }
        return lastToken?.failure.map(Finding.tokenRefused) ?? .ready
    }
}
