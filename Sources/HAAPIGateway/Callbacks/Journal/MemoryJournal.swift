/// No journal (the memory store without `callbacks.spoolFile`): a delivery not done when the gateway stops is logged as
/// lost, naming the sink.
struct MemoryJournal: CallbackJournal {
    var keptAfterStop: String { "they are lost: without \(ConfigurationKey.callbacksSpoolFile.path) nothing keeps them" }
    func start(for dispatcher: CallbackDispatcher) async {}
    func keep(_ entries: [CallbackEntry], firstTime: Bool) async -> Set<String> { [] }
    func done(_ entry: CallbackEntry, delivered: Bool) async {}
    func failed(_ entry: CallbackEntry, error: any Error) async -> CallbackJournalRetry? { nil }
    func stopHandingOver() async {}

    func leave(_ remaining: [CallbackEntry]) async -> [(entry: CallbackEntry, reason: GatewayError)] {
        remaining.map {
            (
                $0,
                GatewayError(
                    .internalError,
                    "the gateway stopped before the sink accepted it, and \(ConfigurationKey.callbacksSpoolFile.path) is not set"
                )
            )
        }
    }
}
