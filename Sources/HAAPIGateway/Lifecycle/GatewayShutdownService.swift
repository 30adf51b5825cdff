import HAAPI
import ServiceLifecycle

/// Runs for the application's lifetime; on graceful shutdown it gives every callback delivery still waiting for a retry
/// one last attempt and awaits those under way (what is still refused stays in the spool file or the outbox, whose
/// claims it releases for the other replicas, or is logged as lost, naming the sink), finishing within the stop's
/// deadline when there is one.
struct GatewayShutdownService: Service {
    let dispatcher: CallbackDispatcher
    var stopDeadline: StopDeadline? = nil

    func run() async throws {
        try? await gracefulShutdown()
        await dispatcher.flushAtShutdown(finishingBy: stopDeadline?.deadline)
    }
}
