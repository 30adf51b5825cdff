import HAAPI
import ServiceLifecycle

/// Keeps the upstream `HAAPIClient` for the application's lifetime and shuts it down with the application.
struct HAAPIClientService: Service {
    let client: HAAPIClient

    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
