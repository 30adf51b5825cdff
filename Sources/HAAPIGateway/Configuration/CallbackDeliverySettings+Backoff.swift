extension CallbackDeliverySettings {
    /// The wait after a delivery's first failed attempt (`initialBackoffSeconds`, at least a millisecond).
    var initialBackoff: Duration { .milliseconds(Int64(max(0.001, initialBackoffSeconds) * 1000)) }

    /// The wait after `failures` failed attempts (the first ``initialBackoff``, then doubling, at most a minute): what an
    /// entry that failed that often in memory would wait.
    func backoff(afterFailures failures: Int) -> Duration {
        var backoff = initialBackoff
        for _ in 1..<min(max(failures, 1), 64) { backoff = min(backoff * 2, .seconds(60)) }
        return backoff
    }
}
