import Logging

/// Hands a sign-in outcome to every configured sink.
struct CallbackDispatcher: Sendable {
    let sinks: [any CallbackSink]
    let logger: Logger

    init(configurations: [CallbackSinkConfiguration], logger: Logger) {
        self.sinks = configurations.map { configuration -> any CallbackSink in
            switch configuration {
            case .file(let path): return FileCallbackSink(path: path)
            case .webhook(let url, let secret): return WebhookCallbackSink(url: url, secret: secret)
            case .exec(let program): return ExecCallbackSink(program: program)
            }
        }
        self.logger = logger
    }

    /// Delivers the outcome to all sinks; returns whether every sink accepted it.
    @discardableResult
    func deliver(_ outcome: CompletionOutcome) async -> Bool {
        guard let document = try? outcome.encoded() else { return false }
        var allDelivered = true
        for sink in sinks {
            do {
                try await sink.deliver(document)
                logger.info("outcome delivered", metadata: ["sink": "\(sink.name)", "outcome": "\(outcome.outcome)"])
            } catch {
                allDelivered = false
                logger.error("outcome delivery failed", metadata: ["sink": "\(sink.name)", "error": "\(error)"])
            }
        }
        return allDelivered
    }
}
