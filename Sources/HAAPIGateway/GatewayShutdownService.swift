import HAAPI
import ServiceLifecycle

/// Runs for the application's lifetime; on graceful shutdown it gives every callback delivery still waiting for a retry
/// one last attempt (anything still refused is logged as lost, naming the sink), then shuts the upstream client down.
struct GatewayShutdownService: Service {
    let dispatcher: CallbackDispatcher

    func run() async throws {
        try? await gracefulShutdown()
        await dispatcher.flushAtShutdown()
    }
}
