import Logging
import ServiceLifecycle

/// Put after the gateway application in a `ServiceGroup`, so that on SIGTERM it is shut down first: it marks the
/// gateway as draining (readiness down, new sign-ins refused), waits `seconds` for load balancers to notice and for
/// sign-ins under way to finish their current request, and only then lets the application stop its listener, starting
/// the stop's deadline (``StopDeadline``) for the rest.
public struct GatewayDrainService: Service {
    let drain: GatewayDrain
    let seconds: Int
    let stopDeadline: StopDeadline?
    let logger: Logger

    /// Creates the service.
    /// - Parameters:
    ///   - drain: The drain state the gateway's routes read.
    ///   - seconds: How long to drain before the listener stops.
    ///   - stopDeadline: Started once the drain is over: the rest of the stop must end within it.
    ///   - logger: Where the drain is logged.
    public init(drain: GatewayDrain, seconds: Int, stopDeadline: StopDeadline? = nil, logger: Logger) {
        self.drain = drain
        self.seconds = seconds
        self.stopDeadline = stopDeadline
        self.logger = logger
    }

    public func run() async throws {
        try? await gracefulShutdown()
        // A gateway that never listened (it failed to start) stops at once: there is nothing to drain.
        if drain.hasServed {
            drain.begin()
            logger.notice("draining: readiness is down and new sign-ins are refused", metadata: ["seconds": .stringConvertible(seconds)])
            try? await Task.sleep(for: .seconds(seconds))
            logger.notice("drained: the listener stops")
        }
        stopDeadline?.start()
    }
}
