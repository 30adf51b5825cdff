import ServiceLifecycle

/// A listening service whose errors carry its address (``ListenFailure``).
struct NamedListener<Listener: Service>: Service {
    let listener: Listener
    let host: String
    let port: Int

    func run() async throws {
        do {
            try await listener.run()
        } catch {
            throw ListenFailure(host: host, port: port, underlying: error)
        }
    }
}
