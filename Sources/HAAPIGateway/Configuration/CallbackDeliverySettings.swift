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
    /// The most a shutdown waits for the sinks' last attempts (default 10 s), within `server.stopSeconds`; also the most
    /// the person's last page waits, when it is below ``pageWaitSeconds``.
    public var handOverSeconds: Int
    /// The most the person's last page waits for the sinks' first attempts, all at once (default 3 s): a sink that is
    /// down or slow goes on in the background, and the page says so at once rather than keep the person waiting.
    public var pageWaitSeconds: Int

    /// Creates delivery settings.
    /// - Parameters:
    ///   - retryForSeconds: How long failed deliveries are retried.
    ///   - initialBackoffSeconds: The first retry's delay.
    ///   - handOverSeconds: The most a shutdown waits for the sinks.
    ///   - pageWaitSeconds: The most the person's page waits for the sinks.
    public init(retryForSeconds: Int = 3600, initialBackoffSeconds: Double = 1, handOverSeconds: Int = 10, pageWaitSeconds: Int = 3) {
        self.retryForSeconds = retryForSeconds
        self.initialBackoffSeconds = initialBackoffSeconds
        self.handOverSeconds = handOverSeconds
        self.pageWaitSeconds = pageWaitSeconds
    }

    /// How long the person's last page waits for the sinks: ``pageWaitSeconds``, or ``handOverSeconds`` when that is
    /// shorter.
    var pageWait: Duration { .seconds(min(pageWaitSeconds, handOverSeconds)) }
}
