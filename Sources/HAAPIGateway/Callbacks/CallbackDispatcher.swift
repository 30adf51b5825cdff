import Logging

/// Hands a sign-in outcome to every configured sink.
struct CallbackDispatcher: Sendable {
    let sinks: [any CallbackSink]
    let logger: Logger

    init(configurations: [CallbackSinkConfiguration], logger: Logger) {
        self.sinks = configurations.compactMap { configuration -> (any CallbackSink)? in
            switch configuration {
            case .file(let path): return FileCallbackSink(path: path)
            case .webhook(let url, let secret): return WebhookCallbackSink(url: url, secret: secret)
            case .exec:
                logger.warning("callback sink not supported yet; ignored", metadata: ["sink": "\(Self.kind(of: configuration))"])
                return nil
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

    private static func kind(of configuration: CallbackSinkConfiguration) -> String {
        switch configuration {
        case .file: "file"
        case .webhook: "webhook"
        case .exec: "exec"
        }
    }
}
