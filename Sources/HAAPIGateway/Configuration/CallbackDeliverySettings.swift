/// How hard the gateway tries to hand an outcome to a sink that fails.
public struct CallbackDeliverySettings: Sendable {
    /// A failed delivery is retried with backoff for this long before the outcome is given up, with an error log
    /// line naming the sink (default 3600 s).
    public var retryForSeconds: Int
    /// The first retry waits this long; each further one twice as long, at most a minute (default 1 s).
    public var initialBackoffSeconds: Double
    /// Where every delivery not yet done is kept (mode 0600: it may hold tokens), written before the first attempt and
    /// after every change, so that a shutdown or a crash does not lose it: the next start delivers it. `nil`: a delivery
    /// still not done when the gateway stops is logged as lost. Not used with `sessions.store: postgres`, whose outbox
    /// keeps them instead (``CallbackOutbox``).
    public var spoolFile: String? = nil
    /// The most the person's last page waits for the sinks' first attempts (all at once), and the most a shutdown waits
    /// for attempts under way (default 10 s). A slower sink goes on in the background.
    public var handOverSeconds: Int

    /// Creates delivery settings.
    /// - Parameters:
    ///   - retryForSeconds: How long failed deliveries are retried.
    ///   - initialBackoffSeconds: The first retry's delay.
    ///   - handOverSeconds: The most the person's page (and a shutdown) waits for the sinks.
    public init(retryForSeconds: Int = 3600, initialBackoffSeconds: Double = 1, handOverSeconds: Int = 10) {
        self.retryForSeconds = retryForSeconds
        self.initialBackoffSeconds = initialBackoffSeconds
        self.handOverSeconds = handOverSeconds
    }
}
