/// How hard the gateway tries to hand an outcome to a sink that fails.
public struct CallbackDeliverySettings: Sendable {
    /// A failed delivery is retried with backoff for this long before the outcome is given up, with an error log
    /// line naming the sink (default 3600 s).
    public var retryForSeconds: Int
    /// The first retry waits this long; each further one twice as long, at most a minute (default 1 s).
    public var initialBackoffSeconds: Double
    /// Where deliveries still failing at shutdown are kept (mode 0600) to be retried after the next start; `nil` logs them
    /// as lost instead.
    public var spoolFile: String? = nil

    /// Creates delivery settings.
    /// - Parameters:
    ///   - retryForSeconds: How long failed deliveries are retried.
    ///   - initialBackoffSeconds: The first retry's delay.
    public init(retryForSeconds: Int = 3600, initialBackoffSeconds: Double = 1) {
        self.retryForSeconds = retryForSeconds
        self.initialBackoffSeconds = initialBackoffSeconds
    }
}
